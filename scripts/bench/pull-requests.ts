/**
 * `npm run bench -- pull-requests [--runs N]`: a large pull request's page in Chromium. Builds a
 * pull request of 50 files and 5,000 changed lines with 200 review comments (a bundle imported
 * with `import --format pull-request`), starts the whole product as `npm start` does on a fresh
 * PostgreSQL database, and measures through Playwright, timestamps taken in the page:
 *  - interactive: navigation start to the view's "pull-request-interactive" mark (hydrated and
 *    listening to keys), full page load, signed in as the lead;
 *  - comment to comment: a j press to the next comment focused ("pr-comment-focused"), and to the
 *    frame after it (painted), over every comment of the pull request in turn (200 presses, the
 *    files entered rendered on the way); then k back over the last 20.
 * Then the same for the annotator's workspace of that pull request (comment questions, assigned
 * to the demo's first annotator): interactive is navigation start to "workspace-interactive", and
 * j walks from the first comment to the last, each file's diff loaded when it nears the screen;
 * with the size of each page's first response (the workspace's carries its first files' diffs only).
 * The first repetition warms the server and is left out; medians (and the 95th percentile of the
 * key presses) of the others, with the load average, since the machine's other work shows in them.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { E2E_ACCOUNTS } from "@/e2e/accounts";
import { startProduct, stopProduct } from "@/e2e/product";
import { parseArgs } from "@/lib/cli/args";
import { createClient } from "@/lib/db/client";
import { createTestDatabase, freePort } from "@/lib/db/test-database";

const TARGETS_MS = { interactive: 1000, step: 50 } as const;
const FILES = 50;
const CHANGED_LINES = 5000;
const COMMENTS = 200;
export const BENCH_PULL_REQUEST = "bench/large#1";

/** A JavaScript file of `functions` functions; the new version changes `changed` lines of it. */
function makeFile(index: number, changedLines: number): { path: string; oldContents: string; newContents: string } {
  const oldLines: string[] = [];
  const newLines: string[] = [];
  // Each function: 8 lines, 2 of them changed (one deleted, one added per change: 4 changed lines in the diff).
  const functions = Math.ceil(changedLines / 4);
  for (let f = 0; f < functions; f++) {
    const body = [`export function handler${f}(request, limit = ${f}) {`, `  const items = request.items.slice(0, limit); // take ${f}`, `  if (items.length === 0) {`, `    return { status: 404, body: "none" };`, `  }`, `  const total = items.reduce((sum, item) => sum + item.price, 0);`, `  return { status: 200, body: JSON.stringify({ total, count: items.length }) };`, `}`, ``];
    oldLines.push(...body);
    const next = body.slice();
    next[1] = `  const items = request.items.slice(0, Math.min(limit, 100)); // capped ${f}`;
    next[5] = `  const total = items.reduce((sum, item) => sum + item.price * item.quantity, 0);`;
    newLines.push(...next);
  }
  return { path: `src/module${String(index).padStart(2, "0")}/handlers.js`, oldContents: oldLines.join("\n") + "\n", newContents: newLines.join("\n") + "\n" };
}

/** The bundle: one pull request line, its files, and comments spread over the files' changed lines (some ranges, some replies, some on whole files). */
export function largePullRequestBundle(): string {
  const perFile = CHANGED_LINES / FILES;
  const files = Array.from({ length: FILES }, (_, i) => makeFile(i, perFile));
  const systems = ["human", "coderabbit", "claude-code (claude-sonnet-4.6)", "codex"];
  const lines: unknown[] = [{ type: "pullRequest", id: BENCH_PULL_REQUEST, repository: "bench/large", title: "A large pull request", description: "Fifty files, five thousand changed lines." }];
  for (const f of files) lines.push({ type: "file", status: "MODIFIED", ...f });
  // Lines 2 and 6 of each 9-line function are changed: comment c is on function 5 * (c / FILES) + 1 of file c % FILES.
  const lineOf = (c: number) => 9 * (Math.floor(c / FILES) * 5 + 1) + 2;
  for (let c = 0; c < COMMENTS; c++) {
    const file = files[c % FILES];
    const base = { type: "comment", id: `c${c}`, path: file.path, system: systems[c % systems.length], body: `Comment ${c}: the limit should be **checked** before \`slice\`.` };
    const line = lineOf(c);
    // Replies answer the comment on the same file one round before; some comments are on the whole file, some on ranges, some on the old side.
    if (c % 20 === 19 && c >= FILES) lines.push({ ...base, inReplyToId: `c${c - FILES}`, side: "RIGHT", line: lineOf(c - FILES) });
    else if (c % 25 === 7) lines.push(base);
    else if (c % 3 === 0) lines.push({ ...base, side: "RIGHT", startLine: line, line: line + 4 });
    else lines.push({ ...base, side: c % 2 ? "RIGHT" : "LEFT", line });
  }
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

const median = (xs: readonly number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p95 = (xs: readonly number[]) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? NaN;

/** Page-side recorder of key presses and the frame after each focus. */
const RECORDER = () => {
  const w = window as unknown as { __bench: { keys: number[]; painted: number[] } };
  w.__bench = { keys: [], painted: [] };
  addEventListener("keydown", () => w.__bench.keys.push(performance.now()), true);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === "pr-comment-focused") requestAnimationFrame(() => setTimeout(() => w.__bench.painted.push(performance.now()), 0));
  }).observe({ entryTypes: ["mark"] });
};

async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("current-account").waitFor();
}

/** The page's first response: bytes on the wire and decoded. */
const documentSize = (page: Page) =>
  page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return { transferKb: nav.transferSize / 1024, decodedKb: nav.decodedBodySize / 1024 };
  });

/** Assigns the bench's pull request to the demo's first annotator, in a study that now asks comment questions; the assignment's id. */
async function assignPullRequest(databaseUrl: string): Promise<string> {
  const client = createClient(databaseUrl);
  try {
    const study = await client.study.findUniqueOrThrow({ where: { slug: "demo" } });
    if (!study.tasks.includes("COMMENT_QUESTIONS")) await client.study.update({ where: { id: study.id }, data: { tasks: [...study.tasks, "COMMENT_QUESTIONS"] } });
    const first = await client.codeChange.findFirstOrThrow({ where: { studyId: study.id, pullRequest: { externalId: BENCH_PULL_REQUEST } }, orderBy: [{ position: "asc" }, { id: "asc" }] });
    const annotator = await client.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.ann1.email } });
    const assignment = await client.assignment.create({ data: { studyId: study.id, annotatorId: annotator.id, codeChangeId: first.id, task: "COMMENT_QUESTIONS", position: 100_000 } });
    return assignment.id;
  } finally {
    await client.$disconnect();
  }
}

interface PageFigures {
  interactive: number[];
  focus: number[];
  painted: number[];
  back: number[];
  load: number[][];
  size: { transferKb: number; decodedKb: number }[];
}

/** Opens `url` `runs` times; after the page's `mark` (interactive), j `forward` times and k 20 times. */
async function measure(page: Page, url: string, mark: string, forward: number, runs: number, before?: () => Promise<void>): Promise<PageFigures> {
  const out: PageFigures = { interactive: [], focus: [], painted: [], back: [], load: [], size: [] };
  for (let run = 0; run < runs; run++) {
    await before?.();
    await page.goto(url);
    await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, mark, { timeout: 60_000 });
    const ready = await page.evaluate((name) => performance.getEntriesByName(name)[0].startTime, mark);
    // The workspace focuses its first comment by itself: that focus is not a key's.
    if (mark === "workspace-interactive") await page.waitForFunction(() => performance.getEntriesByName("pr-comment-focused").length > 0, undefined, { timeout: 60_000 });
    const size = await documentSize(page);
    const walked = await walk(page, "j", forward);
    const backward = await walk(page, "k", 20);
    if (run === 0) continue;
    out.interactive.push(ready);
    out.focus.push(...walked.focus);
    out.painted.push(...walked.painted);
    out.back.push(...backward.painted);
    out.load.push(loadavg());
    out.size.push(size);
  }
  return out;
}

function report(what: string, runs: number, f: PageFigures) {
  const figures = {
    interactiveMs: median(f.interactive),
    stepFocusMs: median(f.focus),
    stepFocusP95Ms: p95(f.focus),
    stepPaintedMs: median(f.painted),
    stepPaintedP95Ms: p95(f.painted),
    stepBackPaintedMs: median(f.back),
    firstResponseKb: Number((f.size.at(-1)?.transferKb ?? NaN).toFixed(1)),
    firstResponseDecodedKb: Number((f.size.at(-1)?.decodedKb ?? NaN).toFixed(1)),
    loadAverage: f.load.at(-1)?.map((l) => Number(l.toFixed(2))),
  };
  console.log(`${what}: pull request of ${FILES} files, ${CHANGED_LINES} changed lines, ${COMMENTS} comments; ${runs - 1} measured runs`);
  console.log(`  first response: ${figures.firstResponseKb} KB on the wire, ${figures.firstResponseDecodedKb} KB decoded`);
  console.log(`  interactive (navigation start to the view listening to keys): ${figures.interactiveMs.toFixed(0)} ms (target < ${TARGETS_MS.interactive})`);
  console.log(`  j to the next comment focused: median ${figures.stepFocusMs.toFixed(1)} ms, p95 ${figures.stepFocusP95Ms.toFixed(1)} ms`);
  console.log(`  j to the frame after it: median ${figures.stepPaintedMs.toFixed(1)} ms, p95 ${figures.stepPaintedP95Ms.toFixed(1)} ms (target < ${TARGETS_MS.step}); k: median ${figures.stepBackPaintedMs.toFixed(1)} ms`);
  console.log(`  load average (1, 5, 15 min): ${figures.loadAverage?.join(", ")}`);
  console.log(JSON.stringify({ page: what, ...figures }));
}

/** Presses `key` `times` times, each after the previous comment was focused; per press, the time to the focus and to the next frame. */
async function walk(page: Page, key: "j" | "k", times: number): Promise<{ focus: number[]; painted: number[] }> {
  const focus: number[] = [];
  const painted: number[] = [];
  for (let i = 0; i < times; i++) {
    const before = await page.evaluate(() => [performance.getEntriesByName("pr-comment-focused").length, (window as unknown as { __bench: { painted: number[] } }).__bench.painted.length]);
    await page.keyboard.press(key);
    await page.waitForFunction(([marks, frames]) => performance.getEntriesByName("pr-comment-focused").length > marks && (window as unknown as { __bench: { painted: number[] } }).__bench.painted.length > frames, before);
    const t = await page.evaluate(() => {
      const bench = (window as unknown as { __bench: { keys: number[]; painted: number[] } }).__bench;
      const pressed = bench.keys.at(-1)!;
      return { focus: performance.getEntriesByName("pr-comment-focused").at(-1)!.startTime - pressed, painted: bench.painted.at(-1)! - pressed };
    });
    focus.push(t.focus);
    painted.push(t.painted);
  }
  return { focus, painted };
}

export default async function pullRequestsBench(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const runs = Math.max(2, Number(args.flags.get("runs") ?? 4) || 4);
  const database = await createTestDatabase("crjudge_pr_bench", { durable: true });
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "crjudge-pr-bench-"));
  const product = await startProduct(
    { DATABASE_URL: database.url, ADMIN_EMAIL: E2E_ACCOUNTS.admin.email, ADMIN_PASSWORD: E2E_ACCOUNTS.admin.password, LEAD_EMAIL: E2E_ACCOUNTS.lead.email, LEAD_PASSWORD: E2E_ACCOUNTS.lead.password, NEXTAUTH_URL: `http://127.0.0.1:${port}`, AUTH_SECRET: "pull-requests-bench" },
    port,
    30 * 60_000,
  ).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-gpu", "--no-first-run"] });
  try {
    const bundle = path.join(dir, "large.jsonl");
    writeFileSync(bundle, largePullRequestBundle());
    const imported = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "import", "--study", "demo", "--format", "pull-request", bundle], { env: { ...process.env, DATABASE_URL: database.url }, stdio: ["ignore", "ignore", "inherit"] });
    if (imported.status !== 0) throw new Error(`import --format pull-request exited with ${imported.status}`);

    const assignmentId = await assignPullRequest(database.url);

    const context = await browser.newContext({ baseURL: `http://127.0.0.1:${port}`, viewport: { width: 1400, height: 900 } });
    await context.addInitScript(RECORDER);
    const page = await context.newPage();
    await signIn(page, E2E_ACCOUNTS.lead);
    report("the lead's page", runs, await measure(page, `/studies/demo/pull-requests/${encodeURIComponent(BENCH_PULL_REQUEST)}`, "pull-request-interactive", COMMENTS, runs));
    await context.close();

    // The annotator's workspace opens on the first comment (nothing answered, no place kept: cleared before each run); j walks to the last.
    const annotating = await browser.newContext({ baseURL: `http://127.0.0.1:${port}`, viewport: { width: 1400, height: 900 } });
    await annotating.addInitScript(RECORDER);
    const workspace = await annotating.newPage();
    await signIn(workspace, E2E_ACCOUNTS.ann1);
    const forget = () => workspace.evaluate(() => localStorage.clear());
    report("the annotator's workspace", runs, await measure(workspace, `/annotate/${assignmentId}`, "workspace-interactive", COMMENTS - 1, runs, forget));
  } finally {
    await browser.close();
    await stopProduct(product);
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
