import { describe, expect, test } from "vitest";
import { exactMatch, levenshtein, meteor, normalizedEditDistance } from "@/lib/metrics";
import { expectClose, HAS_VECTORS, loadVectors } from "./vectors";

type MeteorIn = { references_tokens: string[][]; hypothesis_tokens: string[] };
type MeteorOut = { meteor: number; per_reference: number[]; meteor_without_wordnet: number };
type EditIn = { a: string; b: string; unit: "char" | "token" };
type EditOut = { distance: number; max_len: number; normalized_distance: number; similarity: number };

describe.skipIf(!HAS_VECTORS)("METEOR and edit-distance vectors", () => {
  const meteorVectors = loadVectors<MeteorIn, MeteorOut>("meteor_nltk");

  test.each(meteorVectors)("METEOR (exact+stem) of $input.hypothesis_tokens", ({ input, expected }) => {
    expectClose(meteor(input.references_tokens, input.hypothesis_tokens), expected.meteor_without_wordnet);
  });

  test("without WordNet, only the synonym vector (automobile/car) differs from nltk's full METEOR", () => {
    const differing = meteorVectors.filter(
      ({ input, expected }) => Math.abs(meteor(input.references_tokens, input.hypothesis_tokens) - expected.meteor) > 1e-12,
    );
    expect(differing.map(({ input }) => input.hypothesis_tokens.join(" "))).toEqual(["the automobile is quick"]);
  });

  test.each(loadVectors<EditIn, EditOut>("normalized_edit_distance"))(
    "NED($input.a, $input.b, $input.unit)",
    ({ input, expected }) => {
      const split = (s: string) => (input.unit === "char" ? Array.from(s) : s.split(/\s+/).filter(Boolean));
      expect(levenshtein(split(input.a), split(input.b))).toBe(expected.distance);
      expectClose(normalizedEditDistance(input.a, input.b, input.unit), expected.normalized_distance);
      expectClose(1 - normalizedEditDistance(input.a, input.b, input.unit), expected.similarity);
    },
  );
});

describe("METEOR degenerate cases", () => {
  test("identical sentences score 1 − 0.5/m³, never 1", () => {
    // P = R = 1, one chunk of m = 3: (1 − 0.5·(1/3)³)·1.
    expectClose(meteor([["fix", "the", "typo"]], ["fix", "the", "typo"]), 1 - 0.5 / 27, 1e-12);
    expect(meteor([["a"]], ["a"])).toBeLessThan(1);
  });

  test("empty sides and no overlap score 0", () => {
    expect(meteor([[]], [])).toBe(0);
    expect(meteor([["a"]], [])).toBe(0);
    expect(meteor([[]], ["a"])).toBe(0);
    expect(meteor([["x"]], ["y"])).toBe(0);
  });

  test("stem matches apply to the leftovers of the exact stage; several references take the max", () => {
    expect(meteor([["tests", "fail"]], ["test", "failing"])).toBeGreaterThan(0);
    expect(meteor([["x"], ["a", "b"]], ["a", "b"])).toBe(meteor([["a", "b"]], ["a", "b"]));
    expect(() => meteor([], ["a"])).toThrow(RangeError);
  });
});

describe("edit distance and exact match degenerate cases", () => {
  test("NED is 0 for identical or both-empty inputs and 1 against an empty side", () => {
    expect(normalizedEditDistance("", "")).toBe(0);
    expect(normalizedEditDistance("same", "same")).toBe(0);
    expect(normalizedEditDistance("", "abc")).toBe(1);
    expect(normalizedEditDistance("abc", "xyz")).toBe(1);
    expect(normalizedEditDistance("a b", "a  b\n", "token")).toBe(0);
  });

  test("exact match ignores whitespace layout but not case", () => {
    expect(exactMatch("return  x;\n", " return x;")).toBe(1);
    expect(exactMatch("Return x;", "return x;")).toBe(0);
    expect(exactMatch("", "")).toBe(1);
  });
});
