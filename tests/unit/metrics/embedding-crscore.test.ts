import { describe, expect, test } from "vitest";
import { seededRandom } from "@/lib/stats";
import {
  type BestMatches,
  calibrateThreshold,
  cosineSimilarity,
  crscore,
  crscoreFromBestMatches,
  countAboveSorted,
  crscoreFromCounts,
  CRSCORE_DEFAULT_TAU,
  embeddingSim,
  pairwiseSimilarities,
  sortAllBestMatches,
  type SortedBestMatches,
  splitReviewSentences,
  thresholdSweep,
  type CrscoreResult,
} from "@/lib/metrics";

describe("cosine similarity and embeddingSim (GradedReviews 5.1)", () => {
  test("parallel, orthogonal and opposite vectors", () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 15);
    expect(cosineSimilarity([1, 0], [0, 3])).toBe(0);
    expect(cosineSimilarity([1, 1], [-1, -1])).toBeCloseTo(-1, 15);
    expect(cosineSimilarity([3, 4], [4, 3])).toBeCloseTo(24 / 25, 15);
  });

  test("values never leave [-1, 1] through rounding", () => {
    const v = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
    expect(cosineSimilarity(v, v)).toBeLessThanOrEqual(1);
  });

  test("a zero vector gives an undefined similarity, not 0", () => {
    expect(cosineSimilarity([0, 0], [1, 2])).toBeNull();
    expect(cosineSimilarity([], [])).toBeNull();
    expect(embeddingSim([0, 0, 0], [1, 2, 3])).toEqual({ value: null, reason: "zero-vector" });
    expect(embeddingSim([1, 0], [1, 0])).toEqual({ value: 1, reason: null });
  });

  test("unequal lengths and non-finite entries are errors", () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(RangeError);
    expect(() => cosineSimilarity([Number.NaN, 1], [1, 1])).toThrow(RangeError);
  });
});

describe("splitReviewSentences (CRScore split_claims)", () => {
  test("splits on line breaks, '. ' and '? ', trims and drops empty pieces", () => {
    expect(splitReviewSentences("Why is this needed? Remove it. Also rename x.\n\n  nit: typo  \n")).toEqual([
      "Why is this needed",
      "Remove it",
      "Also rename x.",
      "nit: typo",
    ]);
    expect(splitReviewSentences("use foo.bar() here")).toEqual(["use foo.bar() here"]);
    expect(splitReviewSentences("  \n \n")).toEqual([]);
  });
});

/** Similarity matrix input: rows are review sentences, columns pseudo-references. */
const matrix = (similarities: (number | null)[][], pseudoReferenceCount = similarities[0]?.length ?? 0) => ({
  similarities,
  pseudoReferenceCount,
});

describe("CRScore (CRScore paper 3.3)", () => {
  test("the default threshold is the paper's tau_best", () => {
    expect(CRSCORE_DEFAULT_TAU).toBe(0.7314);
  });

  test("Con, Comp and Rel from a similarity matrix", () => {
    // 3 review sentences x 4 pseudo-references.
    const result = crscore({
      ...matrix([
        [0.9, 0.1, 0.2, 0.75],
        [0.2, 0.3, 0.1, 0.0],
        [0.1, 0.8, 0.2, 0.3],
      ]),
      tau: 0.7,
    });
    expect(result.conciseness).toBeCloseTo(2 / 3, 15);
    expect(result.comprehensiveness).toBeCloseTo(3 / 4, 15);
    expect(result.relevance).toBeCloseTo((2 * (2 / 3) * (3 / 4)) / (2 / 3 + 3 / 4), 15);
    expect(result.reason).toBeNull();
  });

  test("from embeddings, with the default tau", () => {
    const result = crscore({
      reviewSentenceVectors: [
        [1, 0, 0],
        [0, 0, 1],
      ],
      pseudoReferenceVectors: [
        [1, 0.1, 0],
        [0, 1, 0],
      ],
    });
    expect(result).toEqual({ conciseness: 0.5, comprehensiveness: 0.5, relevance: 0.5, reason: null });
  });

  test("ties at exactly tau do not count (strictly greater)", () => {
    const tau = CRSCORE_DEFAULT_TAU;
    expect(crscore({ ...matrix([[tau]]), tau })).toEqual({
      conciseness: 0,
      comprehensiveness: 0,
      relevance: 0,
      reason: null,
    });
    expect(crscore({ ...matrix([[tau + 1e-12]]), tau }).relevance).toBe(1);
  });

  test("an empty review scores 0 with a reason; no pseudo-references make every score null", () => {
    expect(crscore(matrix([], 3))).toEqual({ conciseness: 0, comprehensiveness: 0, relevance: 0, reason: "empty-review" });
    const none: CrscoreResult = { conciseness: null, comprehensiveness: null, relevance: null, reason: "no-pseudo-references" };
    expect(crscore(matrix([[], []], 0))).toEqual(none);
    expect(crscore(matrix([], 0))).toEqual(none);
    expect(crscore({ reviewSentenceVectors: [[1, 2]], pseudoReferenceVectors: [] })).toEqual(none);
  });

  test("undefined similarities (zero vectors) never exceed tau", () => {
    const result = crscore({ reviewSentenceVectors: [[0, 0], [1, 0]], pseudoReferenceVectors: [[1, 0]], tau: 0.5 });
    expect(result).toEqual({ conciseness: 0.5, comprehensiveness: 1, relevance: 2 / 3, reason: null });
  });

  test("malformed input is rejected", () => {
    expect(() => crscore(matrix([[0.1, 0.2], [0.3]], 2))).toThrow(RangeError);
    expect(() => crscore({ ...matrix([[0.5]]), tau: Number.NaN })).toThrow(RangeError);
  });

  test("pairwiseSimilarities accepts any similarity function", () => {
    const same = (a: string, b: string) => (a === b ? 1 : 0);
    const m = pairwiseSimilarities(["x", "y"], ["y", "z", "x"], same);
    expect(m).toEqual({ similarities: [[0, 0, 1], [1, 0, 0]], pseudoReferenceCount: 3 });
    expect(crscore(m)).toMatchObject({ conciseness: 1, comprehensiveness: 2 / 3 });
  });
});

describe("threshold sweep and calibration (CRScore Table 18, section 3.3)", () => {
  // Deterministic pseudo-random similarity matrices (LCG), 40 reviews of 0-5 sentences x 1-6 pseudo-references.
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const reviews = Array.from({ length: 40 }, () => {
    const columns = 1 + Math.floor(random() * 6);
    const rows = Math.floor(random() * 6);
    return matrix(Array.from({ length: rows }, () => Array.from({ length: columns }, () => random())), columns);
  });

  test("Con, Comp and Rel are non-increasing in tau for every review", () => {
    const taus = [0.5, 0.6, 0.65, 0.6576, 0.7, 0.7314, 0.75, 0.8, 0.9];
    const sweep = thresholdSweep(taus, reviews);
    expect(sweep.map((s) => s.tau)).toEqual(taus);
    for (let t = 1; t < sweep.length; t++) {
      sweep[t].scores.forEach((score, i) => {
        const before = sweep[t - 1].scores[i];
        for (const key of ["conciseness", "comprehensiveness", "relevance"] as const) {
          expect(score[key] as number).toBeLessThanOrEqual(before[key] as number);
        }
      });
    }
    expect(sweep[0].scores[0]).toEqual(crscore({ ...reviews[0], tau: taus[0] }));
  });

  test("calibration pools every review sentence's best match (not a mean of per-review means)", () => {
    const result = calibrateThreshold([matrix([[0.2, 0.9]]), matrix([[0.5], [0.7], [0.3]]), matrix([], 2), matrix([[0.4]])]);
    expect(result.sentenceCount).toBe(5);
    expect(result.tau).toBeCloseTo((0.9 + 0.5 + 0.7 + 0.3 + 0.4) / 5, 15);
  });

  test("calibration without any usable sentence is undefined", () => {
    expect(calibrateThreshold([matrix([], 3), matrix([[], []], 0)])).toEqual({
      tau: null,
      sentenceCount: 0,
      reason: "no review sentence has a pseudo-reference",
    });
  });
});

describe("CRScore from sorted best matches (the Table 18 sweep's path)", () => {
  // The sweep scores a review from its sorted matches' counts above τ (lib/analysis/threshold-sweep.ts).
  const crscoreFromSortedMatches = (sorted: SortedBestMatches, tau: number) =>
    crscoreFromCounts(sorted.reviewSentences, countAboveSorted(sorted.reviewSentenceBest, tau), sorted.pseudoReferences, countAboveSorted(sorted.pseudoReferenceBest, tau));
  const sortOne = (best: BestMatches) => sortAllBestMatches([best])[0];
  const random = seededRandom(18);
  // Values on a coarse grid, so that ties between entries and entries equal to τ are common.
  const list = (length: number) => Array.from({ length }, () => (random() < 0.2 ? null : Math.floor(random() * 8) / 8));
  const cases: BestMatches[] = [
    { reviewSentenceBest: [], pseudoReferenceBest: [0.5] },
    { reviewSentenceBest: [0.5], pseudoReferenceBest: [] },
    { reviewSentenceBest: [null, null], pseudoReferenceBest: [null] },
    ...Array.from({ length: 200 }, () => ({ reviewSentenceBest: list(Math.floor(random() * 6)), pseudoReferenceBest: list(Math.floor(random() * 6)) })),
  ];
  const taus = [-1, 0, 0.1, 0.125, 0.5, 0.6, 0.875, 1, 2];

  test("equals crscoreFromBestMatches at every τ (ties, τ on an entry, nulls, empty lists)", () => {
    for (const best of cases) {
      const sorted = sortOne(best);
      for (const tau of taus) expect(crscoreFromSortedMatches(sorted, tau)).toEqual(crscoreFromBestMatches(best, tau));
    }
  });

  test("sorted lists: each list's defined matches ascending (ties kept, nulls left out), their counts with the nulls; many reviews at once as each alone, in any order", () => {
    const definedSorted = (list: (number | null)[]) => [...list.filter((v) => v !== null)].sort((a, b) => a - b);
    const all = sortAllBestMatches(cases);
    cases.forEach((best, k) => {
      expect([...all[k].reviewSentenceBest]).toEqual(definedSorted(best.reviewSentenceBest));
      expect([...all[k].pseudoReferenceBest]).toEqual(definedSorted(best.pseudoReferenceBest));
      expect([all[k].reviewSentences, all[k].pseudoReferences]).toEqual([best.reviewSentenceBest.length, best.pseudoReferenceBest.length]);
      expect(all[k]).toEqual(sortOne(best));
    });
    expect(sortAllBestMatches([...cases].reverse())).toEqual([...all].reverse());
    expect(sortAllBestMatches([])).toEqual([]);
  });

  test("does not depend on the order of the best matches", () => {
    for (const best of cases.slice(3, 50)) {
      const reversed = { reviewSentenceBest: [...best.reviewSentenceBest].reverse(), pseudoReferenceBest: [...best.pseudoReferenceBest].reverse() };
      for (const tau of taus) expect(crscoreFromSortedMatches(sortOne(reversed), tau)).toEqual(crscoreFromSortedMatches(sortOne(best), tau));
    }
  });
});
