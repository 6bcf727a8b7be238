/**
 * The CRScore tables page on the CRScore Python phase-2 sheets (skipped without ../shared):
 * Table 4 for the offline embedder, titled as the paper's Table 4, with exactly the numbers of
 * `npm run cli -- crscore-table4`, and the smell tables titled as Tables 14 and 6.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { TABLE_4_ROW_LABELS } from "@/components/dashboard/crscore-tables";
import type { Table4Report } from "@/lib/analysis";
import { runImport } from "@/lib/data/imports";
import { hasSharedFile, sharedPath } from "../tests/shared-data";
import { cli, expectNumber, readTable, row } from "./dashboard-helpers";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

const phase1 = ["data", "crscore", "phase1"];
const phase2 = ["data", "crscore", "phase2"];
const annotators = ["marcus", "atharva"];
const hasSheets = annotators.every((a) => hasSharedFile(...phase1, `py_claim_acc_annot_${a}.csv`) && hasSharedFile(...phase2, `py_${a}_review_qual_final.csv`));

async function importAsLead(study: string, format: "crscore-phase1" | "crscore-phase2", ...parts: string[]): Promise<void> {
  const file = sharedPath(...parts);
  const lead = await testDb().account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email }, select: { id: true } });
  const result = await runImport({ study, format, files: [{ name: path.basename(file), content: readFileSync(file) }], createdById: lead.id }, testDb());
  if (result.status !== "imported") throw new Error(`import of ${file} refused: ${JSON.stringify(result)}`);
}

test("CRScore phase 2: the CRScore tables page shows Table 4 for the offline embedder as the CLI computes it, and Tables 14 and 6", async ({ page }) => {
  test.skip(!hasSheets, "../shared CRScore phase-1 and phase-2 sheets are not present");
  test.setTimeout(300_000);
  const slug = "crscore-py-tables-e2e";
  if (!(await testDb().study.findUnique({ where: { slug } }))) {
    for (const a of annotators) await importAsLead(slug, "crscore-phase1", ...phase1, `py_claim_acc_annot_${a}.csv`);
    for (const a of annotators) await importAsLead(slug, "crscore-phase2", ...phase2, `py_${a}_review_qual_final.csv`);
  }
  const expected = await cli<Table4Report>(["crscore-table4", "--study", slug]);

  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${slug}`);
  await page.getByRole("link", { name: "CRScore tables" }).click();
  await expect(page.getByRole("heading", { name: "CRScore tables" })).toBeVisible();
  await expect(page.locator("#crscore-table-4-title")).toHaveText(/^CRScore Table 4: precision, recall and F1 of the similarity threshold/, { timeout: 120_000 });
  const table = await readTable(page, "crscore-table-4");
  expect(table.rows.map((r) => r.key)).toEqual(expected.rows.map((r) => `${r.kind}-${r.tau.toFixed(4)}`));
  for (const r of expected.rows) {
    const cells = row(table, `${r.kind}-${r.tau.toFixed(4)}`);
    expect(cells.kind.text).toBe(TABLE_4_ROW_LABELS[r.kind]);
    expectNumber(cells.tau, r.tau, `τ ${r.kind}`);
    expectNumber(cells.precision, r.precision, `P at ${r.tau}`);
    expectNumber(cells.recall, r.recall, `R at ${r.tau}`);
    expectNumber(cells.f1, r.f1, `F1 at ${r.tau}`);
    expect(cells.tp.value).toBe(String(r.truePositives));
  }
  // The offline embedder, τ by the paper's procedure (GPT-3.5 rated best) and τ_GT, said under the table.
  expect(expected.embedder).toMatchObject({ model: "tfidf-offline-v2", offline: true });
  expect(expected.tau).toMatchObject({ source: "best-system", calibration: { system: "gpt3.5_pred" } });
  const note = page.getByTestId("table-4-note");
  await expect(note).toContainText(`${expected.pairs} review-claim pairs`);
  await expect(note).toContainText("tfidf-offline-v2 (the offline TF-IDF default, not a neural model");
  await expect(note).toContainText(`CRScore's τ ${expected.tau.value.toFixed(4)}: calibrated by the paper's procedure on gpt3.5_pred's review sentences`);
  await expect(note).toContainText(`τ_GT ${expected.tauGt.value.toFixed(4)}: calibrated on the human reference reviews`);

  // The imported smells carry no smell type, and no smells run ranked blocks: both tables say what they are, without rows or with zero blocks.
  await expect(page.locator("#crscore-table-14-title")).toHaveText(/^CRScore Table 14: smell types per language/);
  await expect(page.locator("#crscore-table-6-title")).toHaveText(/^CRScore Table 6: radon's cyclomatic-complexity ranks/);
  const ranks = await readTable(page, "crscore-table-6");
  expect(ranks.rows.map((r) => [r.key, r.cells.blocks.value])).toEqual([["A", "0"], ["B", "0"], ["C", "0"], ["D", "0"], ["E", "0"], ["F", "0"]]);
});
