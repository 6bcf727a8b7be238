/**
 * Dawid and Skene (1979), Table 1: five anaesthetists rate 45 patients' fitness for surgery on a
 * 4-point scale; the first rates every patient three times. The paper's maximum-likelihood class
 * proportions are 0.40, 0.42, 0.11, 0.07. The other expected values come from an independent
 * numpy implementation of the same EM (same start: each patient's share of answers per class).
 */
import { describe, expect, test } from "vitest";
import { dawidSkene, type Rating } from "@/lib/agreement";

// patient → anaesthetist → answers (Dawid & Skene 1979, Table 1)
const TABLE_1: number[][][] = [
  [[1, 1, 1], [1], [1], [1], [1]], [[3, 3, 3], [4], [3], [3], [4]], [[1, 1, 2], [2], [1], [2], [2]], [[2, 2, 2], [3], [1], [2], [1]], [[2, 2, 2], [3], [2], [2], [2]],
  [[2, 2, 2], [3], [3], [2], [2]], [[1, 2, 2], [2], [1], [1], [1]], [[3, 3, 3], [3], [4], [3], [3]], [[2, 2, 2], [2], [2], [2], [3]], [[2, 3, 2], [2], [2], [2], [3]],
  [[4, 4, 4], [4], [4], [4], [4]], [[2, 2, 2], [3], [3], [4], [3]], [[1, 1, 1], [1], [1], [1], [1]], [[2, 2, 2], [3], [2], [1], [2]], [[1, 2, 1], [1], [1], [1], [1]],
  [[1, 1, 1], [2], [1], [1], [1]], [[1, 1, 1], [1], [1], [1], [1]], [[1, 1, 1], [1], [1], [1], [1]], [[2, 2, 2], [2], [2], [2], [1]], [[2, 2, 2], [1], [3], [2], [2]],
  [[2, 2, 2], [2], [2], [2], [2]], [[2, 2, 2], [2], [2], [2], [1]], [[2, 2, 2], [3], [2], [2], [2]], [[2, 2, 1], [2], [2], [2], [2]], [[1, 1, 1], [1], [1], [1], [1]],
  [[1, 1, 1], [1], [1], [1], [1]], [[2, 3, 2], [2], [2], [2], [2]], [[1, 1, 1], [1], [1], [1], [1]], [[1, 1, 1], [1], [1], [1], [1]], [[1, 1, 2], [1], [1], [2], [1]],
  [[1, 1, 1], [1], [1], [1], [1]], [[3, 3, 3], [3], [2], [3], [3]], [[1, 1, 1], [1], [1], [1], [1]], [[2, 2, 2], [2], [2], [2], [2]], [[2, 2, 2], [3], [2], [3], [2]],
  [[4, 3, 3], [4], [3], [4], [3]], [[2, 2, 1], [2], [2], [3], [2]], [[2, 3, 2], [3], [2], [3], [3]], [[3, 3, 3], [3], [4], [3], [2]], [[1, 1, 1], [1], [1], [1], [1]],
  [[1, 1, 1], [1], [1], [1], [1]], [[1, 2, 1], [2], [1], [1], [1]], [[2, 3, 2], [2], [2], [2], [2]], [[1, 2, 1], [1], [1], [1], [1]], [[2, 2, 2], [2], [2], [2], [2]],
];

const ratings: Rating[] = TABLE_1.flatMap((observers, i) => observers.flatMap((answers, k) => answers.map((value) => ({ item: `patient ${i + 1}`, rater: `anaesthetist ${k + 1}`, value }))));

describe("Dawid-Skene on the anaesthetist data (Dawid & Skene 1979)", () => {
  const result = dawidSkene(ratings, { scale: [1, 2, 3, 4] });

  test("class proportions as published: 0.40, 0.42, 0.11, 0.07", () => {
    expect(result.priors.map((p) => Number(p.toFixed(2)))).toEqual([0.4, 0.42, 0.11, 0.07]);
  });

  test("proportions, first anaesthetist's diagonal and competences equal an independent numpy computation", () => {
    const numpy = {
      priors: [0.39955475288215814, 0.4219833919138389, 0.1117951885373362, 0.06666666666666667],
      firstDiagonal: [0.8894883486860508, 0.8763799368401501, 0.6611784597973576, 0.4444444444444444],
      competence: [0.8287632759033571, 0.7788688393433107, 0.7766484532337024, 0.8669434580698637, 0.8423719503978708],
    };
    result.priors.forEach((p, j) => expect(p).toBeCloseTo(numpy.priors[j], 8));
    result.confusion[0].forEach((row, j) => expect(row[j]).toBeCloseTo(numpy.firstDiagonal[j], 8));
    expect(result.raters).toEqual([1, 2, 3, 4, 5].map((k) => `anaesthetist ${k}`));
    result.competence.forEach((c, k) => expect(c).toBeCloseTo(numpy.competence[k], 8));
  });

  test("most probable class of each patient equals the numpy computation", () => {
    const expected = [1, 4, 2, 2, 2, 2, 1, 3, 2, 2, 4, 3, 1, 2, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 2, 1, 1, 1, 1, 3, 1, 2, 2, 4, 2, 3, 3, 1, 1, 1, 2, 1, 2];
    expect(result.posteriors.map((t) => result.classes[t.indexOf(Math.max(...t))])).toEqual(expected);
    for (const t of result.posteriors) expect(t.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  test("a value off the scale is refused", () => {
    expect(() => dawidSkene([{ item: "a", rater: "r", value: 7 }], { scale: [1, 2] })).toThrow(/not one of the classes/);
  });
});
