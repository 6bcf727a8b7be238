import { describe, expect, test } from "vitest";
import { corpusChrf, sentenceChrf } from "@/lib/metrics";
import { expectClose, HAS_VECTORS, loadVectors } from "./vectors";

describe.skipIf(!HAS_VECTORS)("chrF / chrF++ vectors", () => {
  type SentenceIn = { hypothesis: string; references: string[] };
  test.each(loadVectors<SentenceIn, { score: number }>("sacrebleu_chrf_sentence"))(
    "chrF($input.hypothesis)",
    ({ input, expected }) => {
      expectClose(sentenceChrf(input.hypothesis, input.references, 0), expected.score);
    },
  );

  test.each(loadVectors<SentenceIn, { score: number }>("sacrebleu_chrfpp_sentence"))(
    "chrF++($input.hypothesis)",
    ({ input, expected }) => {
      expectClose(sentenceChrf(input.hypothesis, input.references, 2), expected.score);
    },
  );

  type CorpusIn = { hypotheses: string[]; references: string[][]; word_order: 0 | 2 };
  test.each(loadVectors<CorpusIn, { score: number }>("sacrebleu_chrf_corpus"))(
    "corpus chrF word_order=$input.word_order, $input.references.length streams",
    ({ input, expected }) => {
      expectClose(corpusChrf(input.hypotheses, input.references, input.word_order), expected.score);
    },
  );
});

describe("chrF degenerate cases", () => {
  test("identical strings score 100, empty or disjoint ones 0", () => {
    expect(sentenceChrf("Use a HashMap here.", ["Use a HashMap here."], 0)).toBeCloseTo(100, 10);
    expect(sentenceChrf("Use a HashMap here.", ["Use a HashMap here."], 2)).toBeCloseTo(100, 10);
    expect(sentenceChrf("", [""], 0)).toBe(0);
    expect(sentenceChrf("", ["abc"], 2)).toBe(0);
    expect(sentenceChrf("abc", ["xyz"], 0)).toBe(0);
  });

  test("whitespace is ignored for character n-grams and astral characters count once", () => {
    expect(sentenceChrf("a b c", ["abc"], 0)).toBeCloseTo(100, 10);
    // "a👍b" has 3 characters: 3 unigrams, 2 bigrams, 1 trigram, all matched.
    expect(sentenceChrf("a👍b", ["a👍b"], 0)).toBeCloseTo(100, 10);
  });

  test("the first reference wins an F tie", () => {
    expect(sentenceChrf("abc", ["abc", "abc"], 0)).toBeCloseTo(100, 10);
  });
});
