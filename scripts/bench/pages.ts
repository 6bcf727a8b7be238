/**
 * `npm run bench -- pages [--runs N]`: page timings on the demo study in Chromium, as
 * an annotator and a lead see them. Starts the whole product as `npm start` does (web server,
 * metric worker, migrations, first accounts, demo seed; building first when the build is
 * missing or older than the sources) on a fresh durable PostgreSQL database, then measures in
 * Debian's Chromium through Playwright, timestamps taken in the page (performance.now()):
 *  - workspace interactive: navigation start to the workspace's "workspace-interactive" mark
 *    (hydrated and listening to keys), full page load, signed in;
 *  - save acknowledged: the save request's start to the "All changes saved" badge (and, for
 *    reference, the key press to the badge, which includes the autosave debounce);
 *  - next item: the `n` press to the next item's workspace being interactive (client navigation);
 *  - dashboards: navigation start to the complete agreement / validity report (validity of the
 *    first metric after the `metrics` command scored the demo study with BLEU and CRScore), second
 *    and later loads (served from the cached report; the first load computes it), with the
 *    server's CPU time per load (web processes, worker, database; /proc).
 * The first repetition of each figure warms the server and is left out; medians of the others.
 * One line per figure, then one JSON line.
 */
import { spawnSync } from "node:child_process";
import { chromium, type Page } from "@playwright/test";
import { E2E_ACCOUNTS } from "@/e2e/accounts";
import { startProduct, stopProduct } from "@/e2e/product";
import { parseArgs } from "@/lib/cli/args";
import { createClient } from "@/lib/db/client";
import { createTestDatabase, freePort } from "@/lib/db/test-database";
import { postgresCpuMs, processTreeCpuMs } from "./support/postgres-cpu";

const TARGETS_MS = { workspaceInteractive: 500, saveAcknowledged: 100, nextItem: 300, agreementCached: 300, validityCached: 300 } as const;

/** Page-side recorder: key presses, save badge states and completed reports, with their times. */
const RECORDER = () => {
  const w = window as unknown as { __bench: { keys: { key: string; t: number }[]; states: { state: string; t: number }[]; complete: { id: string; t: number }[] } };
  w.__bench = { keys: [], states: [], complete: [] };
  addEventListener("keydown", (e) => w.__bench.keys.push({ key: e.key, t: performance.now() }), true);
  let last: string | null = null;
  new MutationObserver(() => {
    const state = document.querySelector('[data-testid="save-status"]')?.getAttribute("data-state") ?? null;
    if (state !== null && state !== last) w.__bench.states.push({ state, t: performance.now() });
    last = state;
    for (const el of document.querySelectorAll('main [data-complete="true"]')) {
      const id = el.getAttribute("data-testid") ?? "";
      if (!w.__bench.complete.some((c) => c.id === id)) w.__bench.complete.push({ id, t: performance.now() });
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state", "data-complete"] });
};

type Recorded = { keys: { key: string; t: number }[]; states: { state: string; t: number }[]; complete: { id: string; t: number }[] };

const median = (xs: readonly number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("current-account").waitFor();
}

/** Full load of a workspace: navigation start to its interactive mark. */
async function openWorkspace(page: Page, assignmentId: string): Promise<number> {
  await page.goto(`/annotate/${assignmentId}`);
  await page.locator('[data-testid="workspace"][data-ready="true"]').waitFor();
  return page.evaluate(() => performance.getEntriesByName("workspace-interactive").at(-1)!.startTime);
}

/** Sets the first review's grade to `digit`; the save request's start and the key press to "All changes saved". */
async function saveOnce(page: Page, digit: string): Promise<{ request: number; key: number }> {
  const before = await page.evaluate(() => performance.getEntriesByType("resource").length);
  await page.keyboard.press(digit);
  await page.locator('[data-testid="save-status"][data-state="saved"]').waitFor({ timeout: 15_000 });
  const { saved, pressed, sent } = await page.evaluate(
    ({ before, digit }) => {
      const bench = (window as unknown as { __bench: Recorded }).__bench;
      const pressed = bench.keys.filter((k) => k.key === digit).at(-1)!.t;
      const saved = bench.states.find((s) => s.state === "saved" && s.t > pressed)!.t;
      const save = performance
        .getEntriesByType("resource")
        .slice(before)
        .find((r) => new URL(r.name).pathname === "/api/annotations")!;
      return { saved, pressed, sent: save.startTime };
    },
    { before, digit },
  );
  return { request: saved - sent, key: saved - pressed };
}

/** From the `n` press that leaves the item to the next item's interactive mark. */
async function nextOnce(page: Page): Promise<number> {
  const marks = await page.evaluate(() => performance.getEntriesByName("workspace-interactive").length);
  const arrived = () => page.waitForFunction((marks) => performance.getEntriesByName("workspace-interactive").length > marks, marks, { timeout: 30_000 });
  await page.keyboard.press("n");
  // On an item that is not submitted the first `n` only warns; the second leaves it.
  const warned = await Promise.race([
    page
      .getByText("Press n again to leave it")
      .waitFor({ timeout: 30_000 })
      .then(() => true, () => false),
    arrived().then(() => false, () => false),
  ]);
  if (warned) await page.keyboard.press("n");
  await arrived();
  return page.evaluate(() => {
    const pressed = (window as unknown as { __bench: Recorded }).__bench.keys.filter((k) => k.key === "n").at(-1)!.t;
    return performance.getEntriesByName("workspace-interactive").at(-1)!.startTime - pressed;
  });
}

/**
 * Full load of a dashboard: navigation start to its complete report, and the time to first byte;
 * with the CPU the server side spent on it (`serverCpuMs`: web processes, worker and database),
 * which the machine's load inflates less than wall time.
 */
async function openDashboard(page: Page, url: string, testId: string, serverCpuMs: () => number): Promise<{ complete: number; ttfb: number; serverCpu: number }> {
  const cpu0 = serverCpuMs();
  await page.goto(url);
  await page.locator(`main [data-testid="${testId}"][data-complete="true"]`).waitFor({ timeout: 60_000 });
  const serverCpu = serverCpuMs() - cpu0;
  const times = await page.evaluate((testId) => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return { complete: (window as unknown as { __bench: Recorded }).__bench.complete.find((c) => c.id === testId)!.t, ttfb: nav.responseStart };
  }, testId);
  return { ...times, serverCpu };
}

export default async function pagesBench(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const runs = Math.max(2, Number(args.flags.get("runs") ?? 6) || 6);
  const database = await createTestDatabase("crjudge_pages", { durable: true });
  const port = await freePort();
  const product = await startProduct(
    {
      DATABASE_URL: database.url,
      ADMIN_EMAIL: E2E_ACCOUNTS.admin.email,
      ADMIN_PASSWORD: E2E_ACCOUNTS.admin.password,
      LEAD_EMAIL: E2E_ACCOUNTS.lead.email,
      LEAD_PASSWORD: E2E_ACCOUNTS.lead.password,
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      AUTH_SECRET: "pages-bench",
    },
    port,
    // npm start builds first when the build is older than the sources: minutes on a busy machine
    30 * 60_000,
  ).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-gpu", "--no-first-run"],
  });
  const client = createClient(database.url);
  try {
    const ann1 = await client.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.ann1.email } });
    const queue = await client.assignment.findMany({ where: { annotatorId: ann1.id, study: { slug: "demo" } }, orderBy: [{ position: "asc" }, { id: "asc" }] });
    const grading = queue.find((a) => a.task === "REFERENCE_GRADING");
    // `n` goes to the next item of the same task's queue: the first of a task with several items
    const first = queue.find((a) => queue.filter((b) => b.task === a.task).length > 1);
    if (!grading || !first) throw new Error("the demo study gives ann1@demo.local no reference-grading item or no task with two items");

    const annotator = await browser.newContext({ baseURL: `http://127.0.0.1:${port}` });
    await annotator.addInitScript(RECORDER);
    const page = await annotator.newPage();
    await signIn(page, E2E_ACCOUNTS.ann1);
    const interactive: number[] = [];
    const saveRequest: number[] = [];
    const saveKey: number[] = [];
    const next: number[] = [];
    for (let run = 0; run < runs; run++) {
      const load = await openWorkspace(page, grading.id);
      // the stored grade alternates, so every press is a change
      const save = await saveOnce(page, run % 2 ? "3" : "4");
      await openWorkspace(page, first.id);
      const step = await nextOnce(page);
      if (run === 0) continue;
      interactive.push(load);
      saveRequest.push(save.request);
      saveKey.push(save.key);
      next.push(step);
    }
    await annotator.close();

    // Scores for the validity dashboard, as a lead computes them (the `metrics` command; BLEU and CRScore run locally).
    const metrics = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "metrics", "--study", "demo", "--metric", "bleu-gradedreviews,crscore"], { env: { ...process.env, DATABASE_URL: database.url }, stdio: ["ignore", "ignore", "inherit"] });
    if (metrics.status !== 0) throw new Error(`metrics --study demo exited with ${metrics.status}`);

    const lead = await browser.newContext({ baseURL: `http://127.0.0.1:${port}` });
    await lead.addInitScript(RECORDER);
    const leadPage = await lead.newPage();
    await signIn(leadPage, E2E_ACCOUNTS.lead);
    const databasePort = Number(new URL(database.url).port);
    const serverCpuMs = () => (processTreeCpuMs(product.process.pid!) ?? NaN) + (postgresCpuMs(databasePort) ?? NaN);
    const dashboards: Record<"agreement" | "validity", { first: number; complete: number[]; ttfb: number[]; serverCpu: number[] }> = {
      agreement: { first: 0, complete: [], ttfb: [], serverCpu: [] },
      validity: { first: 0, complete: [], ttfb: [], serverCpu: [] },
    };
    for (const name of ["agreement", "validity"] as const) {
      for (let run = 0; run < runs; run++) {
        const t = await openDashboard(leadPage, `/studies/demo/${name}`, `${name}-report`, serverCpuMs);
        if (run === 0) dashboards[name].first = t.complete;
        else {
          dashboards[name].complete.push(t.complete);
          dashboards[name].ttfb.push(t.ttfb);
          dashboards[name].serverCpu.push(t.serverCpu);
        }
      }
    }
    await lead.close();

    const figures = {
      workspaceInteractive: median(interactive),
      saveAcknowledged: median(saveRequest),
      saveFromKeyPress: median(saveKey),
      nextItem: median(next),
      agreementCached: median(dashboards.agreement.complete),
      agreementCachedTtfb: median(dashboards.agreement.ttfb),
      agreementCachedServerCpu: median(dashboards.agreement.serverCpu),
      agreementFirst: dashboards.agreement.first,
      validityCached: median(dashboards.validity.complete),
      validityCachedTtfb: median(dashboards.validity.ttfb),
      validityCachedServerCpu: median(dashboards.validity.serverCpu),
      validityFirst: dashboards.validity.first,
    };
    const line = (label: string, value: number, target?: number) => console.log(`${label.padEnd(58)} ${value.toFixed(0).padStart(6)} ms${target === undefined ? "" : `   (target < ${target} ms: ${value < target ? "met" : "NOT met"})`}`);
    console.log(`medians of ${runs - 1} runs after a warm-up, demo study, Chromium, 2 web processes + worker`);
    line("workspace interactive (navigation to hydrated)", figures.workspaceInteractive, TARGETS_MS.workspaceInteractive);
    line("save acknowledged (request sent to 'All changes saved')", figures.saveAcknowledged, TARGETS_MS.saveAcknowledged);
    line("  key press to 'All changes saved' (with the debounce)", figures.saveFromKeyPress);
    line("next item (n to the next item interactive)", figures.nextItem, TARGETS_MS.nextItem);
    line("agreement dashboard, cached report (navigation to complete)", figures.agreementCached, TARGETS_MS.agreementCached);
    line("  time to first byte", figures.agreementCachedTtfb);
    line("  server CPU (web, worker, database)", figures.agreementCachedServerCpu);
    line("  first load (report computed)", figures.agreementFirst);
    line("validity dashboard, cached report (navigation to complete)", figures.validityCached, TARGETS_MS.validityCached);
    line("  time to first byte", figures.validityCachedTtfb);
    line("  server CPU (web, worker, database)", figures.validityCachedServerCpu);
    line("  first load (report computed)", figures.validityFirst);
    console.log(JSON.stringify({ runs: runs - 1, ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${k}Ms`, Math.round(v)])) }));
  } finally {
    await client.$disconnect();
    await browser.close();
    await stopProduct(product);
    await database.drop();
  }
}
