import { expect, test } from "vitest";
import { needsAnalyze } from "@/lib/import/analyze";

test("a table is analyzed after an import past autovacuum's threshold: more than 50 rows and 10 % of the table", () => {
  // Never analyzed (-1): more than 50 rows.
  expect([needsAnalyze(50, -1), needsAnalyze(51, -1)]).toEqual([false, true]);
  expect([needsAnalyze(50, 0), needsAnalyze(51, 0)]).toEqual([false, true]);
  // 10,000 rows: more than 1,050.
  expect([needsAnalyze(1050, 10_000), needsAnalyze(1051, 10_000)]).toEqual([false, true]);
  expect(needsAnalyze(0, 10_000)).toBe(false);
});
