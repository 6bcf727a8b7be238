/**
 * Generating pseudo-references from the page (CRScore §3.1): a lead starts a smells run on a small
 * study (a JavaScript and a Python change), watches it from queued to done as the metric worker
 * analyzes the changes with the real analyzers, reads CRScore Tables 14 and 6 of what it found,
 * and an annotator sees the generated smells in stage 1 of the workspace, next to the claims.
 * Skipped (with a message) when an analyzer is missing; under CI=true that fails.
 */
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { runImport } from "@/lib/data/imports";
import { studySmellTables } from "@/lib/data/pseudo-references";
import { detectAnalyzers } from "@/lib/static-analysis";
import { JS_CHANGE, PYTHON_CHANGE } from "../tests/unit/static-analysis/fixtures";
import { readTable, row, startMetricWorker } from "./dashboard-helpers";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { gotoWorkspace, newAnnotator } from "./workspace-fixtures";

/** A study of two changes, each with one claim and one review, owned by the e2e lead. */
async function smallStudy(): Promise<{ id: string; slug: string }> {
  const slug = `smells-e2e-${randomUUID().slice(0, 8)}`;
  const lines = [
    { id: "js", ...JS_CHANGE },
    { id: "py", ...PYTHON_CHANGE },
  ].map((c) => JSON.stringify({ id: c.id, language: c.language, filePath: c.filePath, diff: c.diff, oldFile: c.oldFile, newFile: c.newFile, pseudoReferences: [{ id: "c1", kind: "CLAIM", source: "gpt", text: `The change adds code to ${c.filePath}.`, position: 0 }], reviews: [{ id: "r", system: "s", text: "Looks fine.", position: 0 }] }));
  const lead = await testDb().account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email }, select: { id: true } });
  const result = await runImport({ study: slug, format: "jsonl", files: [{ name: "smells.jsonl", content: Buffer.from(`${lines.join("\n")}\n`) }], createdById: lead.id }, testDb());
  if (result.status !== "imported") throw new Error(`import refused: ${JSON.stringify(result)}`);
  const id = result.summary.study.id;
  await testDb().study.update({ where: { id }, data: { tasks: ["CLAIM_VERIFICATION"] } });
  return { id, slug };
}

test("a lead generates smells from the pseudo-references page, watches the run finish, and they appear in Tables 14 and 6 and in stage 1", async ({ page }) => {
  test.setTimeout(240_000);
  const missing = (await detectAnalyzers(["javascript", "python"])).flatMap((s) => (s.available ? [] : [s.message]));
  if (missing.length > 0 && process.env.CI === "true") throw new Error(missing.join(" "));
  test.skip(missing.length > 0, missing.join(" "));
  const study = await smallStudy();

  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${study.slug}`);
  await page.getByRole("link", { name: "Pseudo-references" }).click();
  // The first visit probes the analyzers (seconds: PMD's probe starts a JVM); later renders reuse the answer.
  await expect(page.getByTestId("analyzers")).toContainText(/jshint \d/, { timeout: 60_000 });
  // The server sees what this machine has: every analyzer by its version, or exactly what is missing (Java, not "PMD: run npm install").
  for (const status of await detectAnalyzers()) await expect(page.getByTestId("analyzers")).toContainText(status.available ? `${status.tool} ${status.version}` : status.message);
  const form = page.getByRole("form", { name: "Generate pseudo-references" });
  await form.getByLabel("Source").selectOption("smells");
  await form.getByRole("button", { name: "Generate" }).click();
  await expect(form.getByRole("status")).toHaveText("smells: started, 2 of 2 code changes queued.");
  // No worker yet: the run waits, at 0 of 2.
  const runRow = page.getByTestId("pseudo-reference-runs").locator("tbody tr[data-row]").first();
  await expect(runRow.locator('td[data-col="status"]')).toHaveText("QUEUED");
  await expect(runRow.locator('td[data-col="progress"]')).toHaveAttribute("data-value", "0");
  const stopWorker = await startMetricWorker();
  try {
    // The page polls while the run is active: done, 2 of 2, with what it stored.
    await expect(runRow.locator('td[data-col="status"]')).toHaveText("DONE", { timeout: 180_000 });
  } finally {
    await stopWorker();
  }
  await expect(runRow.locator('td[data-col="progress"]')).toHaveAttribute("data-value", "1");
  const stored = await testDb().pseudoReference.count({ where: { kind: "SMELL", codeChange: { studyId: study.id } } });
  expect(stored).toBeGreaterThan(2);
  await expect(runRow.locator('td[data-col="stored"]')).toHaveAttribute("data-value", String(stored));

  // CRScore Tables 14 and 6 of the generated smells, as the CLI's pseudo-refs answer has them.
  const expected = await studySmellTables(study.id, testDb());
  await page.goto(`/studies/${study.slug}/crscore-tables`);
  await expect(page.locator("#crscore-table-14-title")).toHaveText(expected.table14.title);
  const table14 = await readTable(page, "crscore-table-14");
  expect(table14.rows.map((r) => [r.cells.language.text, r.cells.smellType.text, Number(r.cells.count.value)])).toEqual(expected.table14.rows.map((r) => [r.language, r.smellType, r.count]));
  expect(row(table14, "javascript:W033").count.value).toBe("2");
  await expect(page.locator("#crscore-table-6-title")).toHaveText(expected.table6.title);
  const table6 = await readTable(page, "crscore-table-6");
  expect(table6.rows.map((r) => [r.key, Number(r.cells.blocks.value)])).toEqual(expected.table6.rows.map((r) => [r.rank, r.blocks]));
  expect(row(table6, "C").blocks.value).toBe("1");

  // Stage 1: an annotator of the JavaScript change sees its generated smells next to the claim to verify.
  const { account, accountId } = await newAnnotator("smells");
  const change = await testDb().codeChange.findFirstOrThrow({ where: { studyId: study.id, externalId: "js" }, include: { pseudoReferences: { where: { kind: "SMELL" }, orderBy: { position: "asc" } } } });
  await testDb().studyMember.create({ data: { studyId: study.id, accountId, role: "ANNOTATOR" } });
  const assignment = await testDb().assignment.create({ data: { studyId: study.id, annotatorId: accountId, codeChangeId: change.id, task: "CLAIM_VERIFICATION", position: 0 } });
  await page.context().clearCookies();
  await signIn(page, account);
  await gotoWorkspace(page, assignment.id);
  const smells = page.getByRole("region", { name: "Smells" });
  await expect(smells.locator("li")).toHaveText(change.pseudoReferences.map((s) => new RegExp(`^${s.text.replace(/[.*+?^${}()|[\]\\`]/g, "\\$&")} · JSHint \\d`)));
  expect(change.pseudoReferences.map((s) => s.text)).toEqual(["Missing semicolon at line 6: `var y = x * 2`.", "Missing semicolon at line 7: `return y == 4`."]);
  await expect(page.getByText("The change adds code to src/sum.js.")).toBeVisible();
});
