import { describe, expect, test } from "vitest";
import {
  bleuFromStr,
  codeReviewerBleu,
  gradedReviewsBleu,
  mosesSmoothBleu,
  normalizeMteval11a,
  PY_FLOAT_MIN,
  pyRound,
  wordpunctTokenize,
} from "@/lib/metrics";
import { expectClose, HAS_VECTORS, loadVectors } from "./vectors";

describe.skipIf(!HAS_VECTORS)("CodeReviewer smooth BLEU vectors", () => {
  type SentenceIn = { hypothesis: string; references: string[] };
  type SentenceOut = { bleu: number; tokens_hyp: string[]; tokens_refs: string[][] };
  test.each(loadVectors<SentenceIn, SentenceOut>("codereviewer_smooth_bleu_sentence"))(
    "bleu($input.hypothesis)",
    ({ input, expected }) => {
      expect(normalizeMteval11a(input.hypothesis)).toEqual(expected.tokens_hyp);
      expect(input.references.map(normalizeMteval11a)).toEqual(expected.tokens_refs);
      expectClose(mosesSmoothBleu(input.references, input.hypothesis), expected.bleu);
    },
  );

  type FromStrIn = { predictions: string[]; golds: string[]; rmstop: boolean };
  type FromStrOut = { bleu_rounded: number; bleu_unrounded: number; per_segment_bleu_0_1: number[] };
  test.each(loadVectors<FromStrIn, FromStrOut>("codereviewer_bleu_fromstr"))(
    "bleu_fromstr rmstop=$input.rmstop",
    ({ input, expected }) => {
      const result = bleuFromStr(input.predictions, input.golds, { removeStopwords: input.rmstop });
      expect(result.bleu).toBe(expected.bleu_rounded);
      expectClose(result.unrounded, expected.bleu_unrounded);
      result.segments.forEach((segment, i) => expectClose(segment, expected.per_segment_bleu_0_1[i]));
      input.predictions.forEach((prediction, i) =>
        expectClose(
          codeReviewerBleu(prediction, input.golds[i], { removeStopwords: input.rmstop }),
          expected.per_segment_bleu_0_1[i] * 100,
        ),
      );
    },
  );

  type GradedIn = { reference: string; review: string };
  const graded = loadVectors<GradedIn, { bleu: number }>("gradedreviews_bleu");
  test.each(graded)("GradedReviews BLEU($input.review)", ({ input, expected }) => {
    expectClose(gradedReviewsBleu(input.review, input.reference), expected.bleu);
  });

  test("the first three GradedReviews vectors reproduce the paper's Table 1 (17.53, 12.88, 70.71)", () => {
    const published = graded.slice(0, 3).map(({ input }) => pyRound(gradedReviewsBleu(input.review, input.reference), 2));
    expect(published).toEqual([17.53, 12.88, 70.71]);
    expect(graded.slice(0, 3).map((v) => v.published?.bleu)).toEqual([17.53, 12.88, 70.71]);
  });
});

describe("smooth BLEU degenerate cases", () => {
  test("the smoothing constant is Python's sys.float_info.min, not Number.MIN_VALUE", () => {
    expect(PY_FLOAT_MIN).toBe(2.2250738585072014e-308);
    expect(PY_FLOAT_MIN).not.toBe(Number.MIN_VALUE);
  });

  test("reviews sharing no word score a tiny positive value that depends on length", () => {
    const short = gradedReviewsBleu("LGTM", "Please rename this variable");
    const long = gradedReviewsBleu("LGTM ship it", "Please rename this variable");
    expect(short).toBeGreaterThan(0);
    expect(short).toBeLessThan(1e-70);
    expect(long).toBeGreaterThan(0);
    expect(long).not.toBe(short);
  });

  test("an empty hypothesis scores exp(-r), not 0", () => {
    expectClose(mosesSmoothBleu(["a b c"], ""), Math.exp(-3), 1e-12);
    // Both empty: every order adds ln x − ln x = 0 and the brevity penalty is 0, so exp(0).
    expect(gradedReviewsBleu("", "")).toBe(100);
  });

  test("identical texts score 1 (100), a one-token exact match too", () => {
    expect(mosesSmoothBleu(["Use a constant here."], "Use a constant here.")).toBeCloseTo(1, 12);
    expect(mosesSmoothBleu(["fix"], "fix")).toBeCloseTo(1, 12);
    expect(gradedReviewsBleu("Nit: typo", "nit: TYPO")).toBeCloseTo(100, 10);
  });

  test("stopwords are removed case-sensitively, before lowercasing", () => {
    expect(codeReviewerBleu("The fix", "the fix", { removeStopwords: true })).toBeCloseTo(70.71067811865476, 10);
    expect(codeReviewerBleu("The fix", "the fix", { removeStopwords: false })).toBeCloseTo(100, 10);
  });

  test("wordpunct keeps punctuation runs together and treats combining marks as punctuation", () => {
    expect(wordpunctTokenize("don't!! use x_y")).toEqual(["don", "'", "t", "!!", "use", "x_y"]);
    expect(wordpunctTokenize("e\u0301t\u00e9")).toEqual(["e", "\u0301", "t\u00e9"]);
  });

  test("bleu_fromstr rejects mismatched inputs", () => {
    expect(() => bleuFromStr(["a"], [], { removeStopwords: false })).toThrow(RangeError);
    expect(() => mosesSmoothBleu([], "a")).toThrow(RangeError);
  });

  test("pyRound rounds exact ties to even and everything else from the exact binary value", () => {
    expect(pyRound(0.125, 2)).toBe(0.12);
    expect(pyRound(0.375, 2)).toBe(0.38);
    expect(pyRound(2.675, 2)).toBe(2.67); // the double is just below 2.675
    expect(pyRound(19.64664616510934, 2)).toBe(19.65);
    expect(pyRound(70.71067811865476, 2)).toBe(70.71);
  });
});
