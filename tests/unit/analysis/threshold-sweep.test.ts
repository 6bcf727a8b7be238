import { describe, expect, test } from "vitest";
import { kendallScan } from "@/lib/analysis/threshold-sweep";
import { type BestMatches, crscoreFromSortedMatches, sortBestMatches } from "@/lib/metrics";
import { kendallTauB, seededRandom } from "@/lib/stats";

describe("Kendall's τ-b scan of the threshold sweep (properties)", () => {
  const random = seededRandom(31);
  // Best matches on a coarse grid, so that ties and matches equal to a threshold are common; nulls and empty lists too.
  const list = (length: number) => Array.from({ length }, () => (random() < 0.15 ? null : Math.floor(random() * 20) / 20));
  const reviews = (n: number) =>
    Array.from({ length: n }, () => {
      const best: BestMatches = { reviewSentenceBest: list(Math.floor(random() * 5)), pseudoReferenceBest: list(Math.floor(random() * 4)) };
      return { human: 1 + Math.floor(random() * 9) / 2, sorted: sortBestMatches(best) };
    });
  const taus = [0, 0.05, 0.1, 0.33, 0.35, 0.5, 0.6, 0.61, 0.95, 1];
  /** kendallTauB of the reviews scored at τ, one threshold at a time (the scan as first written). */
  const direct = (field: "conciseness" | "comprehensiveness" | "relevance", matches: ReturnType<typeof reviews>, tau: number) => {
    const x: number[] = [];
    const y: number[] = [];
    for (const m of matches) {
      const value = crscoreFromSortedMatches(m.sorted, tau)[field];
      if (value === null) continue;
      x.push(value);
      y.push(m.human);
    }
    return kendallTauB(x, y).statistic;
  };

  test("equals kendallTauB at every threshold to the last bit, for each column", () => {
    for (const n of [400, 60, 3]) {
      const matches = reviews(n);
      for (const field of ["conciseness", "comprehensiveness", "relevance"] as const) {
        const scan = kendallScan(field, matches, taus);
        taus.forEach((tau, t) => expect(Object.is(scan[t], direct(field, matches, tau))).toBe(true));
      }
    }
  });

  test("does not depend on the order of the reviews", () => {
    const matches = reviews(300);
    expect(kendallScan("relevance", [...matches].reverse(), taus)).toEqual(kendallScan("relevance", matches, taus));
  });

  test("undefined where every review ties, or none has a score", () => {
    const same = Array.from({ length: 5 }, () => ({ human: 3, sorted: sortBestMatches({ reviewSentenceBest: [0.4], pseudoReferenceBest: [0.4] }) }));
    expect(kendallScan("relevance", same, taus)).toEqual(taus.map(() => null));
    const unscored = Array.from({ length: 5 }, (_, i) => ({ human: i, sorted: sortBestMatches({ reviewSentenceBest: [0.4], pseudoReferenceBest: [] }) }));
    expect(kendallScan("relevance", unscored, taus)).toEqual(taus.map(() => null));
    expect(kendallScan("relevance", reviews(10), [])).toEqual([]);
  });
});
