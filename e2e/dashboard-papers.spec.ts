/**
 * The papers' numbers on the dashboards (skipped without ../shared): after importing the Python
 * CRScore phase-1 sheets, the agreement dashboard shows claim-accuracy Cohen's kappa 0.8043 on
 * the common claims and the claim rates 83.65 / 12.02 / 4.33 %; after importing the
 * GradedReviews sample and computing smoothed BLEU from the metric runs page, the validity
 * dashboard shows Spearman 0.2370 (0.236996, ../shared/reference/README.md).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { AgreementReport, ValidityReport } from "@/lib/analysis";
import { runImport } from "@/lib/data/imports";
import { hasSharedFile, sharedPath } from "../tests/shared-data";
import { paperReliabilityIds } from "../tests/unit/claims/crscore-phase1";
import { cli, expectComplete, expectNumber, readTable, row, startMetricWorker } from "./dashboard-helpers";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

const phase1 = ["data", "crscore", "phase1"];
const hasPhase1 = hasSharedFile(...phase1, "py_claim_acc_annot_marcus.csv") && hasSharedFile(...phase1, "py_claim_acc_annot_atharva.csv");
const graded = ["data", "gradedreviews", "gradedreviews-sample-300.xlsx"];
const hasGraded = hasSharedFile(...graded);

async function importFile(study: string, format: "crscore-phase1" | "gradedreviews", ...parts: string[]): Promise<void> {
  await importAs(study, format, false, ...parts);
}

/** primary: the file's annotator is the primary one for Table 1 (lib/claims/verdict.ts). */
async function importAs(study: string, format: "crscore-phase1" | "gradedreviews", primary: boolean, ...parts: string[]): Promise<void> {
  const file = sharedPath(...parts);
  // Imported as the lead, who then owns the new study (studies are seen by their owner and members).
  const lead = await testDb().account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email }, select: { id: true } });
  const result = await runImport({ study, format, files: [{ name: path.basename(file), content: readFileSync(file) }], createdById: lead.id, primary }, testDb());
  if (result.status !== "imported") throw new Error(`import of ${file} refused: ${JSON.stringify(result)}`);
}

test("CRScore phase 1: the agreement dashboard shows kappa 0.8043 on the common claims and the Table 1 rates", async ({ page }) => {
  test.skip(!hasPhase1, "../shared CRScore phase-1 sheets are not present");
  const slug = "crscore-py-e2e";
  // marcus's sheet, then atharva's as the primary annotator (the paper's verdicts; see lib/analysis/claim-quality.ts).
  await importFile(slug, "crscore-phase1", ...phase1, "py_claim_acc_annot_marcus.csv");
  await importAs(slug, "crscore-phase1", true, ...phase1, "py_claim_acc_annot_atharva.csv");
  // The paper's reliability set (sheet rows 395-494), stored as the study's reliability item set.
  const setFile = path.join(tmpdir(), `${slug}-reliability.txt`);
  writeFileSync(setFile, paperReliabilityIds().join("\n"));
  await cli(["item-sets", "create", "--study", slug, "--name", "paper rows 395-494", "--kind", "reliability", "--file", setFile]);

  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${slug}/agreement`);
  await expectComplete(page, "agreement-report");
  const expected = await cli<AgreementReport>(["agreement", "--study", slug, "--json"]);
  const [q] = expected.tasks[0].questions;
  const reliability = await readTable(page, "reliability-claim_verification-code");
  expect(row(reliability, "cohen").value.text).toBe("0.8043");
  expectNumber(row(reliability, "cohen").value, q.reliabilitySet?.coefficients.find((c) => c.key === "cohen")?.value, "reliability-set kappa");
  expect(row(reliability, "cohen").n.text).toBe("100");

  const quality = await readTable(page, "claim-quality");
  const all = row(quality, "all");
  expect([all.accuracy.text, all.error.text, all.unverifiableRate.text]).toEqual(["83.65 %", "12.02 %", "4.33 %"]);
  expect(all.judged.text).toBe("416");
});

test("GradedReviews sample: BLEU computed from the metric runs page, Spearman 0.2370 with the grade on the validity dashboard", async ({ page }) => {
  test.skip(!hasGraded, "../shared GradedReviews sample is not present");
  test.setTimeout(180_000);
  const slug = "gradedreviews-e2e";
  await importFile(slug, "gradedreviews", ...graded);

  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${slug}/metrics`);
  const form = page.getByRole("form", { name: "Start a metric run" });
  await form.getByLabel("bleu-gradedreviews").check();
  await form.getByRole("button", { name: "Start run" }).click();
  await expect(form.getByRole("status")).toContainText("Started run: 1200 of 1200 reviews to score in 2 chunk(s)");
  const status = page.getByTestId("metric-runs").locator('tbody tr td[data-col="status"]').first();
  await expect(status).toHaveText("QUEUED");
  const stopWorker = await startMetricWorker();
  try {
    await expect(status).toHaveText("DONE", { timeout: 120_000 });
  } finally {
    await stopWorker();
  }

  await page.goto(`/studies/${slug}/validity?metric=bleu-gradedreviews&human=grade`);
  await expectComplete(page, "validity-report");
  const expected = await cli<ValidityReport>(["validity", "--study", slug, "--metric", "bleu-gradedreviews", "--human", "grade", "--json"]);
  const overall = row(await readTable(page, "correlations"), "overall");
  expect(overall.spearman.text).toBe("0.2370");
  expectNumber(overall.spearman, expected.correlations.overall.spearman.statistic, "Spearman");
  expect(expected.correlations.overall.spearman.statistic?.toFixed(6)).toBe("0.236996");
  expect(overall.n.text).toBe("1200");
});
