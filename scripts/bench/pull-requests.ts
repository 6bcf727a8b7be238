/**
 * `npm run bench -- pull-requests [--runs N] [--profile DIR]`: a large pull request's page in Chromium. Builds a
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
 * Every web process serves the page a first time before (its first request loads the page's
 * code), and the first repetition warms the browser and is left out; medians (and the 95th
 * percentile of the key presses) of the others, with the load average, since the machine's other
 * work shows in them.
 * Besides wall times, the page's main-thread CPU (Chromium's Performance.getMetrics: script, layout
 * and style recalculation, and all its tasks) from navigation to interactive and per key press,
 * which a busy machine changes far less; the server's time to the first byte; the JavaScript the
 * page loaded. The last line is one JSON object with both pages' figures.
 * `--profile DIR` opens each page once more, not counted, recording a Chromium trace and a
 * JavaScript CPU profile of the load and of 30 j presses into DIR (open them in Chromium's
 * DevTools), and prints the profiles' self time by script and by function.
 */
import { spawnSync } from "node:child_process";
import http from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from "@playwright/test";
import { E2E_ACCOUNTS } from "@/e2e/accounts";
import { startProduct, stopProduct } from "@/e2e/product";
import { parseArgs } from "@/lib/cli/args";
import { createClient } from "@/lib/db/client";
import { createTestDatabase, freePort } from "@/lib/db/test-database";
import { selfTimes, topLines, type CpuProfile } from "./support/cpu-profile";

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

/** The page's first response (bytes on the wire and decoded, the server's time to its first byte) and the JavaScript the page loaded (compressed, as served, and decoded; from the cache after the first run). */
const documentSize = (page: Page) =>
  page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((r) => r.initiatorType === "script" || /\.js(\?|$)/.test(r.name));
    return {
      transferKb: nav.transferSize / 1024,
      decodedKb: nav.decodedBodySize / 1024,
      ttfbMs: nav.responseStart,
      serverMs: nav.responseStart - nav.requestStart,
      jsKb: scripts.reduce((n, r) => n + r.encodedBodySize, 0) / 1024,
      jsDecodedKb: scripts.reduce((n, r) => n + r.decodedBodySize, 0) / 1024,
      scripts: scripts.length,
    };
  });

/** The page's main-thread time so far, in ms: script, layout, style recalculation, and every task (Chromium's counters). */
interface MainThread {
  script: number;
  layout: number;
  style: number;
  task: number;
}

async function mainThread(cdp: CDPSession): Promise<MainThread> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const ms = (name: string) => 1000 * (metrics.find((m) => m.name === name)?.value ?? NaN);
  return { script: ms("ScriptDuration"), layout: ms("LayoutDuration"), style: ms("RecalcStyleDuration"), task: ms("TaskDuration") };
}

const NONE: MainThread = { script: 0, layout: 0, style: 0, task: 0 };

/** The main-thread time between two readings; script + layout + style is the page's own CPU. */
const spent = (from: MainThread, to: MainThread): MainThread & { cpu: number } => {
  const d = { script: to.script - from.script, layout: to.layout - from.layout, style: to.style - from.style, task: to.task - from.task };
  return { ...d, cpu: d.script + d.layout + d.style };
};

/** Records, while `run` runs, a Chromium trace and a JavaScript CPU profile into DIR/NAME.trace.json and DIR/NAME.cpuprofile; prints where the JavaScript time went. */
async function profiled<T>(browser: Browser, page: Page, cdp: CDPSession, dir: string, name: string, run: () => Promise<T>): Promise<T> {
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await browser.startTracing(page, { path: path.join(dir, `${name}.trace.json`), screenshots: false });
  await cdp.send("Profiler.start");
  const result = await run();
  const { profile } = await cdp.send("Profiler.stop");
  await browser.stopTracing();
  await cdp.send("Profiler.disable");
  writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  const { byPackage, byFunction, totalMs, seconds } = selfTimes([profile as unknown as CpuProfile]);
  console.log([`  ${name}: JavaScript CPU profile (${seconds.toFixed(1)} s, ${totalMs.toFixed(0)} ms sampled) in ${dir}:`, "   by script:", ...topLines(byPackage, totalMs, 8), "   by function:", ...topLines(byFunction, totalMs, 15)].join("\n"));
  return result;
}

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
  /** Main-thread CPU (script + layout + style) and task time: from navigation to interactive, and per j press. */
  loadCpu: (MainThread & { cpu: number })[];
  stepCpu: number[];
  stepTask: number[];
  load: number[][];
  size: Awaited<ReturnType<typeof documentSize>>[];
}

interface Profiling {
  browser: Browser;
  dir: string;
  name: string;
}

/**
 * Asks for `url` with the context's cookies on a new connection each time, enough times to reach
 * every web process (the cluster hands connections round robin): the first request a process
 * serves loads the page's modules, which a warm-up run in the browser reaches in one process only.
 */
async function warmWebProcesses(context: BrowserContext, url: URL): Promise<void> {
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const processes = Number(process.env.CRJUDGE_WEB_PROCESSES ?? 2) || 2;
  for (let i = 0; i < 2 * processes; i++) {
    await new Promise<void>((resolve, reject) => {
      const request = http.get(url, { agent: false, headers: { cookie } }, (response) => {
        response.resume();
        response.on("end", resolve);
      });
      request.on("error", reject);
    });
  }
}

/** Opens `url` `runs` times; after the page's `mark` (interactive), j `forward` times and k 20 times. With `profiling`, once more, recorded and not counted. */
async function measure(page: Page, url: string, mark: string, forward: number, runs: number, before?: () => Promise<void>, profiling?: Profiling): Promise<PageFigures> {
  const out: PageFigures = { interactive: [], focus: [], painted: [], back: [], loadCpu: [], stepCpu: [], stepTask: [], load: [], size: [] };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  // The page is on the product's origin (signed in): the warm-up asks the same server.
  await warmWebProcesses(page.context(), new URL(url, page.url()));
  for (let run = 0; run < runs + (profiling ? 1 : 0); run++) {
    const profile = profiling && run === runs ? <T>(what: string, step: () => Promise<T>) => profiled(profiling.browser, page, cdp, profiling.dir, `${profiling.name}-${what}`, step) : <T>(_what: string, step: () => Promise<T>) => step();
    await before?.();
    // Chromium's counters start again with each document: read once the page is interactive.
    const { ready, loadCpu } = await profile("load", async () => {
      await page.goto(url);
      await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, mark, { timeout: 60_000 });
      const at = await mainThread(cdp);
      return { ready: await page.evaluate((name) => performance.getEntriesByName(name)[0].startTime, mark), loadCpu: spent(NONE, at) };
    });
    // The workspace focuses its first comment by itself: that focus is not a key's.
    if (mark === "workspace-interactive") await page.waitForFunction(() => performance.getEntriesByName("pr-comment-focused").length > 0, undefined, { timeout: 60_000 });
    const size = await documentSize(page);
    if (run === runs) {
      await profile("j", () => walk(page, cdp, "j", Math.min(30, forward)));
      continue;
    }
    const walked = await walk(page, cdp, "j", forward);
    const backward = await walk(page, cdp, "k", 20);
    if (run === 0) continue;
    out.interactive.push(ready);
    out.loadCpu.push(loadCpu);
    out.focus.push(...walked.focus);
    out.painted.push(...walked.painted);
    out.stepCpu.push(...walked.cpu);
    out.stepTask.push(...walked.task);
    out.back.push(...backward.painted);
    out.load.push(loadavg());
    out.size.push(size);
  }
  return out;
}

const round = (x: number, digits = 1) => Number(x.toFixed(digits));

function report(what: string, runs: number, f: PageFigures) {
  const loadCpu = (key: keyof PageFigures["loadCpu"][number]) => round(median(f.loadCpu.map((c) => c[key])), 0);
  const size = f.size.at(-1);
  const figures = {
    interactiveMs: round(median(f.interactive), 0),
    interactiveCpuMs: loadCpu("cpu"),
    interactiveScriptMs: loadCpu("script"),
    interactiveLayoutMs: loadCpu("layout"),
    interactiveStyleMs: loadCpu("style"),
    interactiveTaskMs: loadCpu("task"),
    ttfbMs: round(median(f.size.map((s) => s.ttfbMs)), 0),
    serverMs: round(median(f.size.map((s) => s.serverMs)), 0),
    stepFocusMs: round(median(f.focus)),
    stepFocusP95Ms: round(p95(f.focus)),
    stepPaintedMs: round(median(f.painted)),
    stepPaintedP95Ms: round(p95(f.painted)),
    stepCpuMs: round(median(f.stepCpu)),
    stepCpuP95Ms: round(p95(f.stepCpu)),
    stepTaskMs: round(median(f.stepTask)),
    stepBackPaintedMs: round(median(f.back)),
    firstResponseKb: round(size?.transferKb ?? NaN),
    firstResponseDecodedKb: round(size?.decodedKb ?? NaN),
    jsKb: round(size?.jsKb ?? NaN),
    jsDecodedKb: round(size?.jsDecodedKb ?? NaN),
    loadAverage: f.load.at(-1)?.map((l) => round(l, 2)),
  };
  console.log(`${what}: pull request of ${FILES} files, ${CHANGED_LINES} changed lines, ${COMMENTS} comments; ${runs - 1} measured runs`);
  console.log(`  first response: ${figures.firstResponseKb} KB on the wire, ${figures.firstResponseDecodedKb} KB decoded; first byte at ${figures.ttfbMs} ms (server ${figures.serverMs} ms)`);
  console.log(`  JavaScript loaded: ${figures.jsKb} KB as served, ${figures.jsDecodedKb} KB decoded, ${size?.scripts ?? NaN} scripts`);
  console.log(`  interactive (navigation start to the view listening to keys): ${figures.interactiveMs} ms (target < ${TARGETS_MS.interactive})`);
  console.log(`    main-thread CPU until then: ${figures.interactiveCpuMs} ms (script ${figures.interactiveScriptMs}, layout ${figures.interactiveLayoutMs}, style ${figures.interactiveStyleMs}); all tasks ${figures.interactiveTaskMs} ms`);
  console.log(`  j to the next comment focused: median ${figures.stepFocusMs} ms, p95 ${figures.stepFocusP95Ms} ms`);
  console.log(`  j to the frame after it: median ${figures.stepPaintedMs} ms, p95 ${figures.stepPaintedP95Ms} ms (target < ${TARGETS_MS.step}); k: median ${figures.stepBackPaintedMs} ms`);
  console.log(`    main-thread CPU per j: median ${figures.stepCpuMs} ms, p95 ${figures.stepCpuP95Ms} ms; all tasks ${figures.stepTaskMs} ms`);
  console.log(`  load average (1, 5, 15 min): ${figures.loadAverage?.join(", ")}`);
  console.log(JSON.stringify({ page: what, ...figures }));
  return figures;
}

/** Presses `key` `times` times, each after the previous comment was focused; per press, the time to the focus and to the next frame, and the main-thread time spent meanwhile. */
async function walk(page: Page, cdp: CDPSession, key: "j" | "k", times: number): Promise<{ focus: number[]; painted: number[]; cpu: number[]; task: number[] }> {
  const out = { focus: [] as number[], painted: [] as number[], cpu: [] as number[], task: [] as number[] };
  for (let i = 0; i < times; i++) {
    const before = await page.evaluate(() => [performance.getEntriesByName("pr-comment-focused").length, (window as unknown as { __bench: { painted: number[] } }).__bench.painted.length]);
    const start = await mainThread(cdp);
    await page.keyboard.press(key);
    await page.waitForFunction(([marks, frames]) => performance.getEntriesByName("pr-comment-focused").length > marks && (window as unknown as { __bench: { painted: number[] } }).__bench.painted.length > frames, before);
    const used = spent(start, await mainThread(cdp));
    const t = await page.evaluate(() => {
      const bench = (window as unknown as { __bench: { keys: number[]; painted: number[] } }).__bench;
      const pressed = bench.keys.at(-1)!;
      return { focus: performance.getEntriesByName("pr-comment-focused").at(-1)!.startTime - pressed, painted: bench.painted.at(-1)! - pressed };
    });
    out.focus.push(t.focus);
    out.painted.push(t.painted);
    out.cpu.push(used.cpu);
    out.task.push(used.task);
  }
  return out;
}

export default async function pullRequestsBench(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const runs = Math.max(2, Number(args.flags.get("runs") ?? 4) || 4);
  const profileFlag = args.flags.get("profile");
  const profileDir = profileFlag === undefined ? null : path.resolve(profileFlag === true ? ".bench-profile" : String(profileFlag));
  if (profileDir) mkdirSync(profileDir, { recursive: true });
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
    const lead = report("the lead's page", runs, await measure(page, `/studies/demo/pull-requests/${encodeURIComponent(BENCH_PULL_REQUEST)}`, "pull-request-interactive", COMMENTS, runs, undefined, profileDir ? { browser, dir: profileDir, name: "lead" } : undefined));
    await context.close();

    // The annotator's workspace opens on the first comment (nothing answered, no place kept: cleared before each run); j walks to the last.
    const annotating = await browser.newContext({ baseURL: `http://127.0.0.1:${port}`, viewport: { width: 1400, height: 900 } });
    await annotating.addInitScript(RECORDER);
    const workspace = await annotating.newPage();
    await signIn(workspace, E2E_ACCOUNTS.ann1);
    const forget = () => workspace.evaluate(() => localStorage.clear());
    const annotator = report("the annotator's workspace", runs, await measure(workspace, `/annotate/${assignmentId}`, "workspace-interactive", COMMENTS - 1, runs, forget, profileDir ? { browser, dir: profileDir, name: "workspace" } : undefined));
    console.log(JSON.stringify({ bench: "pull-requests", runs: runs - 1, lead, workspace: annotator }));
  } finally {
    await browser.close();
    await stopProduct(product);
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
