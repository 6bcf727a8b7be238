import { describe, expect, test } from "vitest";
import { type AgreementResult, buildAnswerTable, ItemSubsets, type AnswerTable, type AnswerValue } from "@/lib/agreement";
import { coefficientDefinitions, type Question, resampleItems, taskQuestions } from "@/lib/analysis";
import { type Random, seededRandom } from "@/lib/stats";
import { raggedRatings } from "../agreement/ragged-ratings";
import { nearly } from "../agreement/summation-order";

const ratings = (random: Random, items: number, raters: number, values: readonly AnswerValue[], keep: number) => raggedRatings(random, items, raters, values, keep, 0.3);

/** Subsets of the table's items: consecutive windows of the pairable ones (as agreement over time takes them), ordered random subsets, picks with repeats, single items and none. */
function subsets(random: Random, table: AnswerTable): number[][] {
  const n = table.items.length;
  const pairable = table.items.map((_, u) => u).filter((u) => table.itemStart[u + 1] - table.itemStart[u] >= 2);
  const windows = Array.from({ length: Math.ceil(pairable.length / 7) }, (_, b) => pairable.slice(7 * b, 7 * b + 7));
  const ordered = Array.from({ length: 15 }, () => table.items.map((_, u) => u).filter(() => random() < 0.4));
  const repeats = Array.from({ length: 10 }, () => Array.from({ length: 1 + Math.floor(random() * n) }, () => Math.floor(random() * n)));
  return [...windows, ...ordered, ...repeats, [0], [n - 1], []];
}

const result = (r: AgreementResult) => ({ value: r.value, n: r.n, reason: r.reason });

const likert = taskQuestions("REVIEW_RATING", { likertDimensions: ["relevance"], likertMin: 1, likertMax: 5, commentQuestions: [] })[0];
const code = taskQuestions("CLAIM_VERIFICATION", { likertDimensions: [], likertMin: 1, likertMax: 5, commentQuestions: [] })[0];
const uneven: Question = { ...likert, key: "uneven", scale: [0, 1, 2, 5], weights: "linear" };

describe("coefficients of item subsets (agreement over time's windows) from the table's per-item terms", () => {
  const random = seededRandom(715);
  const designs: { name: string; question: Question; table: AnswerTable }[] = [
    { name: "Likert, 4 raters, ragged", question: likert, table: buildAnswerTable(ratings(random, 70, 4, likert.scale, 0.7), { scale: likert.scale }) },
    { name: "Likert, 2 raters (Cohen's kappa of the pair)", question: likert, table: buildAnswerTable(ratings(random, 40, 2, likert.scale, 0.8), { scale: likert.scale }) },
    { name: "claim codes, 5 raters, sparse", question: code, table: buildAnswerTable(ratings(random, 60, 5, code.scale.slice(0, 3), 0.35), { scale: code.scale }) },
    { name: "uneven numeric scale with 0, linear weights, 3 raters", question: uneven, table: buildAnswerTable(ratings(random, 50, 3, uneven.scale, 0.75), { scale: uneven.scale }) },
    { name: "one category only (chance agreement 1)", question: likert, table: buildAnswerTable(ratings(random, 20, 3, [4], 0.8), { scale: likert.scale }) },
    { name: "one rater (no item has two ratings)", question: likert, table: buildAnswerTable(ratings(random, 15, 1, likert.scale, 0.9), { scale: likert.scale }) },
  ];

  for (const { name, question, table } of designs) {
    const definitions = coefficientDefinitions(question, table.raters.length, ["nominal", "ratio"]);

    test(`${name}: each equals the coefficient of the subset's own table, value, n and reason, to the last bit`, () => {
      const items = new ItemSubsets(table);
      for (const subset of subsets(random, table)) {
        items.load(Int32Array.from(subset));
        const own = resampleItems(table, subset);
        for (const def of definitions) expect(result(def.ofSubset(items)), `${def.key} of [${subset.join(",")}]`).toEqual(result(def.compute(own)));
      }
    });

    test(`${name}: a subset's coefficients do not depend on the order of its items, up to summation order`, () => {
      const items = new ItemSubsets(table);
      for (const subset of subsets(random, table)) {
        const forward = definitions.map((def) => result(def.ofSubset(items.load(Int32Array.from(subset)))));
        const backward = definitions.map((def) => result(def.ofSubset(items.load(Int32Array.from(subset).reverse()))));
        expect(backward).toEqual(forward.map((r) => ({ ...r, value: nearly(r.value) })));
      }
    });
  }
});
