import { describe, expect, test } from "vitest";
import { corpusBleu, normalizeMteval11a, sentenceBleu, tokenize13a } from "@/lib/metrics";
import { expectClose, HAS_VECTORS, loadVectors } from "./vectors";

interface BleuOut {
  score: number;
  counts: number[];
  totals: number[];
  precisions: number[];
  bp: number;
  sys_len: number;
  ref_len: number;
}

function expectBleu(actual: ReturnType<typeof sentenceBleu>, expected: BleuOut): void {
  expectClose(actual.score, expected.score);
  expect(actual.correct).toEqual(expected.counts);
  expect(actual.total).toEqual(expected.totals);
  actual.precisions.forEach((p, i) => expectClose(p, expected.precisions[i]));
  expectClose(actual.bp, expected.bp);
  expect(actual.sysLength).toBe(expected.sys_len);
  expect(actual.refLength).toBe(expected.ref_len);
}

describe.skipIf(!HAS_VECTORS)("sacreBLEU vectors", () => {
  type SentenceIn = { hypothesis: string; references: string[] };
  test.each(loadVectors<SentenceIn, BleuOut>("sacrebleu_sentence_bleu"))(
    "sentence_bleu($input.hypothesis)",
    (vector) => {
      const { input, expected } = vector;
      const tokenized = (vector as unknown as { tokenized_hyp: string }).tokenized_hyp;
      expect(tokenize13a(input.hypothesis).join(" ")).toBe(tokenized);
      expectBleu(sentenceBleu(input.hypothesis, input.references), expected);
    },
  );

  type CorpusIn = { hypotheses: string[]; references: string[][] };
  test.each(loadVectors<CorpusIn, BleuOut>("sacrebleu_corpus_bleu"))("corpus_bleu %#", ({ input, expected }) => {
    expectBleu(corpusBleu(input.hypotheses, input.references), expected);
  });
});

describe("sacreBLEU degenerate cases", () => {
  test("identical sentences score 100 at sentence level, but a 3-token corpus scores 0", () => {
    expect(sentenceBleu("use a constant", ["use a constant"]).score).toBeCloseTo(100, 10);
    expect(corpusBleu(["use a constant"], [["use a constant"]]).score).toBe(0);
  });

  test("empty hypothesis and no overlap score 0; scoring is case-sensitive", () => {
    expect(sentenceBleu("", ["Remove this import."]).score).toBe(0);
    expect(sentenceBleu("", [""]).score).toBe(0);
    expect(sentenceBleu("abc def", ["xyz uvw"]).score).toBe(0);
    expect(sentenceBleu("The fix", ["the fix"]).score).toBeLessThan(100);
  });

  test("13a unescapes &amp; before &lt; (unlike 1a) and keeps Unicode punctuation attached", () => {
    expect(tokenize13a("a &amp;lt; b")).toEqual(["a", "<", "b"]);
    expect(normalizeMteval11a("a &amp;lt; b")).toEqual(["a", "&", "lt", ";", "b"]);
    expect(tokenize13a("x&lt;y “quoted”")).toEqual(["x", "<", "y", "“quoted”"]);
  });

  test("the closest reference length wins, ties go to the shorter", () => {
    expect(sentenceBleu("a b c d", ["a b c", "a b c d e"]).refLength).toBe(3);
  });

  test("mismatched reference streams are rejected", () => {
    expect(() => corpusBleu(["a", "b"], [["a"]])).toThrow(RangeError);
    expect(() => sentenceBleu("a", [])).toThrow(RangeError);
  });
});
