import { describe, expect, test } from "vitest";
import { lcsLength, porterStem, rougeL, rougeTokenize } from "@/lib/metrics";
import { expectClose, HAS_VECTORS, loadVectors } from "./vectors";

type Prf = { precision: number; recall: number; fmeasure: number };
type RougeIn = { target: string; prediction: string; use_stemmer: boolean };
type RougeOut = { rougeL: Prf; target_tokens: string[]; prediction_tokens: string[] };

describe.skipIf(!HAS_VECTORS)("ROUGE-L and Porter vectors", () => {
  test.each(loadVectors<RougeIn, RougeOut>("rouge_l"))(
    "rougeL($input.target | $input.prediction, stem=$input.use_stemmer)",
    ({ input, expected }) => {
      expect(rougeTokenize(input.target, input.use_stemmer)).toEqual(expected.target_tokens);
      expect(rougeTokenize(input.prediction, input.use_stemmer)).toEqual(expected.prediction_tokens);
      const score = rougeL(input.target, input.prediction, { useStemmer: input.use_stemmer });
      expectClose(score.precision, expected.rougeL.precision);
      expectClose(score.recall, expected.rougeL.recall);
      expectClose(score.fmeasure, expected.rougeL.fmeasure);
    },
  );

  test.each(loadVectors<{ word: string }, { stem: string }>("porter_stem_nltk"))(
    "stem($input.word) = $expected.stem",
    ({ input, expected }) => {
      expect(porterStem(input.word)).toBe(expected.stem);
    },
  );
});

describe("ROUGE-L degenerate cases", () => {
  test("identical token sequences score 1, no overlap and empty sides 0", () => {
    expect(rougeL("Add a null check", "add a NULL check!", { useStemmer: false }).fmeasure).toBe(1);
    expect(rougeL("alpha beta", "gamma delta", { useStemmer: false })).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(rougeL("", "", { useStemmer: true })).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
  });

  test("F is symmetric in target and prediction; P and R swap", () => {
    const a = rougeL("the tests are failing", "tests fail", { useStemmer: true });
    const b = rougeL("tests fail", "the tests are failing", { useStemmer: true });
    expect(a.fmeasure).toBe(b.fmeasure);
    expect(a.precision).toBe(b.recall);
  });

  test("LCS length", () => {
    expect(lcsLength(["a", "b", "c", "d"], ["b", "d"])).toBe(2);
    expect(lcsLength([], ["a"])).toBe(0);
  });
});

describe("Porter stemmer (NLTK_EXTENSIONS) beyond the vectors", () => {
  test("short words pass through lowercased; irregular forms only match lowercase input, as in nltk", () => {
    expect(porterStem("IS")).toBe("is");
    expect(porterStem("skies")).toBe("sky");
    expect(porterStem("Skies")).toBe("ski");
  });

  test("characters outside the BMP count as one character", () => {
    // Python: len("a😀") == 2, so it is returned unchanged; a UTF-16 length would stem it.
    expect(porterStem("a😀")).toBe("a😀");
    expect(porterStem("😀😀ing")).toBe(porterStem("xxing").replaceAll("x", "😀"));
  });

  test("prototype keys are not irregular forms", () => {
    expect(porterStem("constructor")).toBe("constructor");
    expect(porterStem("hasownproperty")).toBe("hasownproperti");
  });
});
