/**
 * Helpers of the dashboard browser tests: the CLI's JSON on the test database, tables read
 * from the page (text, raw `data-value`), CSV downloads, and number cells checked against the
 * report with the dashboards' own formatting.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { formatNumber } from "@/components/dashboard/format";
import { neutralised } from "@/lib/export/csv";

const root = path.resolve(import.meta.dirname, "..");

/**
 * Runs `npm run cli -- …` on the test database and parses its JSON stdout. Stdout goes to a
 * file: scripts/cli.ts ends with process.exit(), which cuts a large report short on a pipe.
 */
export async function cli<T>(args: string[]): Promise<T> {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL is not set; run through playwright.config.ts");
  const dir = await mkdtemp(path.join(tmpdir(), "crjudge-cli-"));
  const out = path.join(dir, "stdout.json");
  const fd = openSync(out, "w");
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], { cwd: root, env: { ...process.env, DATABASE_URL: url }, stdio: ["ignore", fd, "pipe"] });
      let stderr = "";
      child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      child.on("error", reject);
      child.on("close", (status) => (status === 0 ? resolve() : reject(new Error(`cli ${args.join(" ")} exited with ${status}: ${stderr}`))));
    });
    return JSON.parse(await readFile(out, "utf8")) as T;
  } finally {
    closeSync(fd);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Starts the metric worker (scripts/worker.ts, which `npm start` runs next to the web server)
 * on the test database, with `env` added to its environment (e.g. the LLM_URL of a loopback
 * server); runs started from the pages are computed there. Returns its stop.
 */
export async function startMetricWorker(env: Record<string, string> = {}): Promise<() => Promise<void>> {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL is not set; run through playwright.config.ts");
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], { cwd: root, env: { ...process.env, ...env, DATABASE_URL: url }, stdio: ["ignore", "inherit", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      if (stderr.includes("metric worker: processing")) resolve();
    });
    void exited.then(() => reject(new Error(`the metric worker exited: ${stderr}`)));
  });
  return async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  };
}

/** Points the library's default client at the test database (for calling lib/analysis directly). */
export function useTestDatabaseForLib(): void {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL is not set; run through playwright.config.ts");
  process.env.DATABASE_URL = url;
}

export interface TableCell {
  /** Visible text without the small second line. */
  text: string;
  /** data-value, null when the cell has none. */
  value: string | null;
  n: string | null;
  href: string | null;
}

export interface PageTable {
  header: string[];
  /** `cells` by column key; `list` in column order. */
  rows: { key: string; cells: Record<string, TableCell>; list: TableCell[] }[];
}

/** A dashboard table (by data-testid) as it is in the DOM. */
export async function readTable(page: Page, testId: string): Promise<PageTable> {
  const table = page.getByTestId(testId);
  await expect(table).toBeVisible();
  const raw = await table.evaluate((el) => {
    const clean = (node: Element) => {
      const copy = node.cloneNode(true) as Element;
      copy.querySelectorAll("[data-sub]").forEach((e) => e.remove());
      return (copy.textContent ?? "").trim();
    };
    return {
      header: [...el.querySelectorAll("thead th")].map((th) => (th.textContent ?? "").trim()),
      rows: [...el.querySelectorAll("tbody tr[data-row]")].map((tr) => ({
        key: (tr as HTMLElement).dataset.row as string,
        list: [...tr.querySelectorAll("td")].map((td) => ({
          col: (td as HTMLElement).dataset.col as string,
          text: clean(td),
          value: (td as HTMLElement).dataset.value ?? null,
          n: (td as HTMLElement).dataset.n ?? null,
          href: td.querySelector("a")?.getAttribute("href") ?? null,
        })),
      })),
    };
  });
  return {
    header: raw.header,
    rows: raw.rows.map((r) => ({ key: r.key, list: r.list, cells: Object.fromEntries(r.list.map((c) => [c.col, c])) })),
  };
}

/** The row with `key`, failing clearly when it is missing. */
export function row(table: PageTable, key: string): Record<string, TableCell> {
  const found = table.rows.find((r) => r.key === key);
  expect(found, `row ${key} in [${table.rows.map((r) => r.key).join(", ")}]`).toBeDefined();
  return (found as PageTable["rows"][number]).cells;
}

/** The cell holds exactly `expected` (raw, as the report's JSON has it) and shows it formatted. */
export function expectNumber(cell: TableCell | undefined, expected: number | null | undefined, label: string, format: (v: number | null) => string = formatNumber): void {
  expect(cell, label).toBeDefined();
  const want = expected === null || expected === undefined ? "null" : String(expected);
  expect((cell as TableCell).value, label).toBe(want);
  expect((cell as TableCell).text, label).toBe(format(expected ?? null));
}

/** Clicks the table's "Download CSV" button and parses the file. */
export async function downloadCsv(page: Page, tableTitle: string): Promise<{ name: string; rows: string[][] }> {
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: `Download CSV: ${tableTitle}`, exact: true }).first().click();
  const file = await download;
  const text = Buffer.concat(await (await file.createReadStream()).toArray()).toString("utf8");
  return { name: file.suggestedFilename(), rows: parse(text, { relaxColumnCount: false }) as string[][] };
}

/** The CSV has the table's header and, cell by cell, its raw values (its text where there is none), texts that start like formulas neutralised. */
export function expectCsvMatchesTable(csv: string[][], table: PageTable): void {
  expect(csv[0]).toEqual(table.header.map(neutralised));
  expect(csv.length - 1).toBe(table.rows.length);
  table.rows.forEach((r, i) => {
    const expected = r.list.map((c) => neutralised(c.value === null ? c.text : c.value === "null" ? "" : c.value));
    expect(csv[i + 1], `CSV row ${i + 1} (${r.key})`).toEqual(expected);
  });
}

/** Each chart of `scope` has drawn its SVG surface. */
export async function expectCharts(page: Page, scope: string, count: number): Promise<void> {
  const charts = page.locator(`${scope} figure[data-testid="chart"]`);
  await expect(charts).toHaveCount(count);
  for (let i = 0; i < count; i++) await expect(charts.nth(i).locator("svg.recharts-surface").first()).toBeVisible();
}

/** Opens the details of each question of the agreement dashboard in `scope` (drawn on demand: pairwise and confusion matrices, windows, disagreements). */
export async function openQuestionDetails(page: Page, scope = ""): Promise<void> {
  for (const details of await page.locator(`${scope} details[data-testid^="details-"]`).all()) {
    if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
    await expect(details.locator('table[data-testid^="pairwise-"]')).toBeVisible();
  }
}

/**
 * Waits until the report's CIs have streamed in (pages show point estimates first) and React
 * has put them in place (a streamed boundary waits in a hidden element for a moment).
 */
export async function expectComplete(page: Page, testId: "agreement-report" | "validity-report"): Promise<void> {
  await expect(page.getByRole("main").getByTestId(testId)).toHaveAttribute("data-complete", "true", { timeout: 30_000 });
  await expect(page.getByTestId(testId)).toHaveCount(1);
}
