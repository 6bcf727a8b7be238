// Sums vitest's and Playwright's JSON reports (and failed type check / lint stages) into the
// closing line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;

const vitest = ".test-reports/vitest.json";
if (existsSync(vitest)) {
  const report = JSON.parse(readFileSync(vitest, "utf8"));
  passed += report.numPassedTests;
  // A file that fails before its tests run (import error) has no assertion results of its own.
  const brokenFiles = report.testResults.filter((file) => file.status === "failed" && file.assertionResults.length === 0).length;
  failed += report.numFailedTests + brokenFiles;
  skipped += report.numPendingTests + report.numTodoTests;
} else failed += 1;

const playwright = ".test-reports/playwright.json";
if (existsSync(playwright)) {
  const { stats } = JSON.parse(readFileSync(playwright, "utf8"));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
} else failed += 1;

for (const stage of ["typecheck", "lint"]) if (existsSync(`.test-reports/${stage}.failed`)) failed += 1;

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
