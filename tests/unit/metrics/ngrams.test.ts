import { describe, expect, test } from "vitest";
import { bleuCounts, clippedNgramMatches, ngramTotals } from "@/lib/metrics/ngrams";
import { seededRandom } from "@/lib/stats";

/** The definition, with string keys: Σ_g min(hyp(g), max_r ref_r(g)) per order. */
function naiveMatches(hyp: readonly number[], refs: readonly (readonly number[])[], maxOrder: number): number[] {
  const counts = (tokens: readonly number[], n: number) => {
    const map = new Map<string, number>();
    for (let i = 0; i + n <= tokens.length; i++) {
      const key = tokens.slice(i, i + n).join(" ");
      map.set(key, (map.get(key) ?? 0) + 1);
    }
    return map;
  };
  return Array.from({ length: maxOrder }, (_, i) => {
    const ceiling = new Map<string, number>();
    for (const ref of refs) for (const [key, c] of counts(ref, i + 1)) ceiling.set(key, Math.max(c, ceiling.get(key) ?? 0));
    let matches = 0;
    for (const [key, c] of counts(hyp, i + 1)) matches += Math.min(c, ceiling.get(key) ?? 0);
    return matches;
  });
}

describe("clippedNgramMatches (reused integer trie)", () => {
  const random = seededRandom(99);
  const sequence = (maxLength: number, alphabet: number) => Array.from({ length: Math.floor(random() * maxLength) }, () => Math.floor(random() * alphabet));

  test("equals the string-keyed definition on random sequences, one to three references, repeats and empty sides", () => {
    for (let trial = 0; trial < 400; trial++) {
      const alphabet = 1 + Math.floor(random() * 6); // small alphabets: many repeated n-grams
      const maxOrder = 1 + Math.floor(random() * 6);
      const hyp = sequence(40, alphabet);
      const refs = Array.from({ length: 1 + Math.floor(random() * 3) }, () => sequence(60, alphabet));
      expect(clippedNgramMatches(hyp, refs, maxOrder)).toEqual(naiveMatches(hyp, refs, maxOrder));
    }
  });

  test("one reference: the matches are symmetric, whichever side is shorter (the trie holds the shorter)", () => {
    for (let trial = 0; trial < 200; trial++) {
      const alphabet = 1 + Math.floor(random() * 5);
      const maxOrder = 1 + Math.floor(random() * 6);
      const a = sequence(50, alphabet);
      const b = sequence(50, alphabet);
      const expected = naiveMatches(a, [b], maxOrder);
      expect(clippedNgramMatches(a, [b], maxOrder)).toEqual(expected);
      expect(clippedNgramMatches(b, [a], maxOrder)).toEqual(expected);
      expect(clippedNgramMatches(Int32Array.from(a), [Int32Array.from(b)], maxOrder)).toEqual(expected);
    }
  });

  test("a long reference grows the reused tables; later small calls are unaffected", () => {
    const long = Array.from({ length: 20_000 }, (_, i) => i % 997);
    expect(clippedNgramMatches(long.slice(0, 5_000), [long], 4)).toEqual(naiveMatches(long.slice(0, 5_000), [long], 4));
    expect(clippedNgramMatches([1, 2, 1, 2], [[2, 1, 2, 2]], 4)).toEqual([3, 2, 1, 0]);
  });

  test("bleuCounts is order invariant in its references and counts totals per order", () => {
    const vocabulary = new Map<string, number>();
    const ids = (text: string) => Int32Array.from(text.split(" "), (w) => vocabulary.get(w) ?? vocabulary.set(w, vocabulary.size).size - 1);
    const hyp = ids("the the cat sat on the mat");
    const a = ids("the cat is on the mat");
    const b = ids("there is a cat on the the mat");
    expect(bleuCounts(hyp, [a, b], 4)).toEqual({ ...bleuCounts(hyp, [b, a], 4), refLengths: [6, 8] });
    expect(bleuCounts(hyp, [a, b], 4).total).toEqual(ngramTotals(7, 4));
    expect(ngramTotals(2, 4)).toEqual([2, 1, 0, 0]);
  });
});
