/** CRScore Table 4's counts on hand-made pairs: a pair is predicted addressed at similarity ≥ τ. */
import { describe, expect, test } from "vitest";
import { linkScores, table4Rows } from "@/lib/analysis";

const pairs = [
  { best: 0.9, linked: true },
  { best: 0.72, linked: true },
  { best: 0.71, linked: false },
  { best: 0.5, linked: true },
  { best: null, linked: false },
  { best: 0.2, linked: false },
];

describe("Table 4", () => {
  test("precision, recall and F1 at a threshold", () => {
    expect(linkScores(pairs, 0.7, "grid")).toEqual({ tau: 0.7, kind: "grid", truePositives: 2, falsePositives: 1, falseNegatives: 1, precision: 2 / 3, recall: 2 / 3, f1: 2 / 3 });
    expect(linkScores(pairs, 0.95, "grid")).toMatchObject({ truePositives: 0, precision: null, recall: 0, f1: null });
  });

  test("the grid, CRScore's τ, τ_GT and the best F1 of 0.01-0.99, by τ", () => {
    const rows = table4Rows(pairs, [
      { tau: 0.7314, kind: "tau" },
      { tau: 0.3, kind: "gt" },
    ]);
    // Ties go to the lowest τ: 0.21 already predicts the four pairs above 0.2.
    expect(rows.map((r) => [r.kind, r.tau])).toEqual([["best", 0.21], ["gt", 0.3], ["grid", 0.6], ["grid", 0.65], ["grid", 0.7], ["tau", 0.7314], ["grid", 0.75], ["grid", 0.8]]);
    expect(rows.find((r) => r.kind === "tau")).toMatchObject({ truePositives: 1, falsePositives: 0, falseNegatives: 2 });
    expect(rows.find((r) => r.kind === "best")).toMatchObject({ truePositives: 3, falsePositives: 1, f1: 6 / 7 });
  });
});
