import { describe, expect, test } from "vitest";
import { z } from "zod";
import { kendallScan, referenceTau, ScoredReviews, sweepMatches } from "@/lib/analysis/threshold-sweep";
import { type BestMatches, crscoreFromBestMatches, sortAllBestMatches } from "@/lib/metrics";
import { kendallTauB, kendallTauBOfTable, rankAverage, seededRandom, spearman, spearmanOfRanks } from "@/lib/stats";

const sortOne = (best: BestMatches) => sortAllBestMatches([best])[0];

describe("Kendall's τ-b scan of the threshold sweep (properties)", () => {
  const random = seededRandom(31);
  // Best matches on a coarse grid, so that ties and matches equal to a threshold are common; nulls and empty lists too.
  const list = (length: number) => Array.from({ length }, () => (random() < 0.15 ? null : Math.floor(random() * 20) / 20));
  const reviews = (n: number) =>
    Array.from({ length: n }, () => {
      const best: BestMatches = { reviewSentenceBest: list(Math.floor(random() * 5)), pseudoReferenceBest: list(Math.floor(random() * 4)) };
      return { human: 1 + Math.floor(random() * 9) / 2, best, sorted: sortOne(best) };
    });
  const taus = [0, 0.05, 0.1, 0.33, 0.35, 0.5, 0.6, 0.61, 0.95, 1];
  type Field = "conciseness" | "comprehensiveness" | "relevance";
  /** The reviews' scores at τ, those that are not null, and their human scores (the sweep as first written). */
  const pairs = (field: Field, matches: ReturnType<typeof reviews>, tau: number) => {
    const x: number[] = [];
    const y: number[] = [];
    for (const m of matches) {
      const value = crscoreFromBestMatches(m.best, tau)[field];
      if (value === null) continue;
      x.push(value);
      y.push(m.human);
    }
    return { x, y };
  };
  const direct = (field: Field, matches: ReturnType<typeof reviews>, tau: number) => {
    const { x, y } = pairs(field, matches, tau);
    return kendallTauB(x, y).statistic;
  };
  const scan = (field: Field, matches: ConstructorParameters<typeof ScoredReviews>[1], taus: readonly number[]) => kendallScan(new ScoredReviews(field, matches), taus);

  test("equals kendallTauB at every threshold to the last bit, for each column", () => {
    for (const n of [400, 60, 3]) {
      const matches = reviews(n);
      for (const field of ["conciseness", "comprehensiveness", "relevance"] as const) {
        const scanned = scan(field, matches, taus);
        taus.forEach((tau, t) => expect(Object.is(scanned[t], direct(field, matches, tau))).toBe(true));
      }
    }
  });

  test("does not depend on the order of the reviews", () => {
    const matches = reviews(300);
    expect(scan("relevance", [...matches].reverse(), taus)).toEqual(scan("relevance", matches, taus));
  });

  test("undefined where every review ties, or none has a score", () => {
    const same = Array.from({ length: 5 }, () => ({ human: 3, sorted: sortOne({ reviewSentenceBest: [0.4], pseudoReferenceBest: [0.4] }) }));
    expect(scan("relevance", same, taus)).toEqual(taus.map(() => null));
    const unscored = Array.from({ length: 5 }, (_, i) => ({ human: i, sorted: sortOne({ reviewSentenceBest: [0.4], pseudoReferenceBest: [] }) }));
    expect(scan("relevance", unscored, taus)).toEqual(taus.map(() => null));
    expect(scan("relevance", reviews(10), [])).toEqual([]);
  });

  test("the scores at τ are crscoreFromBestMatches' for the reviews with one, and their table gives kendallTauB's τ-b and p-value", () => {
    for (const n of [400, 60, 3, 0]) {
      const matches = reviews(n);
      for (const field of ["conciseness", "comprehensiveness", "relevance"] as const) {
        const scored = new ScoredReviews(field, matches);
        for (const tau of taus) {
          const { x, y } = pairs(field, matches, tau);
          const at = scored.at(tau);
          expect([...at.x]).toEqual(x);
          expect([...scored.human]).toEqual(y);
          expect(kendallTauBOfTable(at.rows)).toEqual(kendallTauB(x, y));
        }
      }
    }
  });

  test("the ranks at τ are rankAverage's of the scores (ties share their mean rank), so Spearman's ρ and p are spearman's to the last bit", () => {
    for (const n of [400, 60, 3, 1, 0]) {
      const matches = reviews(n);
      for (const field of ["conciseness", "comprehensiveness", "relevance"] as const) {
        const scored = new ScoredReviews(field, matches);
        expect([...scored.humanRanks]).toEqual([...rankAverage(scored.human)]);
        for (const tau of taus) {
          const { x, y } = pairs(field, matches, tau);
          const at = scored.at(tau);
          expect([...at.ranks]).toEqual([...rankAverage(x)]);
          expect(spearmanOfRanks(at.ranks, scored.humanRanks)).toEqual(spearman(x, y));
        }
      }
    }
  });

  test("the ranks at τ follow the reviews when their order changes", () => {
    // The reviews with a score: those without pseudo-references are left out of the ranks.
    const matches = new ScoredReviews("relevance", reviews(200)).reviews;
    const order = matches.map((_, i) => i).sort(() => random() - 0.5);
    const ranks = new ScoredReviews("relevance", matches).at(0.35).ranks;
    const shuffled = new ScoredReviews("relevance", order.map((i) => matches[i])).at(0.35).ranks;
    expect([...shuffled]).toEqual(order.map((i) => ranks[i]));
  });
});

describe("stored CRScore details read for the sweep (properties)", () => {
  const random = seededRandom(47);
  // The schema the details were first read with: what parses is what the sweep and τ_GT read.
  const schema = z.object({ tau: z.number(), reviewSentenceBest: z.array(z.number().nullable()), pseudoReferenceBest: z.array(z.number().nullable()) });
  const list = () => Array.from({ length: Math.floor(random() * 4) }, () => (random() < 0.2 ? null : Math.floor(random() * 10) / 10));
  const valid = () => ({ tau: 0.5, reason: null, reviewSentenceBest: list(), pseudoReferenceBest: list() });
  const broken: unknown[] = [
    null, 0.5, "detail", [0.5], {},
    { reviewSentenceBest: [0.5], pseudoReferenceBest: [0.5] },
    { tau: "0.5", reviewSentenceBest: [0.5], pseudoReferenceBest: [0.5] },
    { tau: Infinity, reviewSentenceBest: [0.5], pseudoReferenceBest: [0.5] },
    { tau: NaN, reviewSentenceBest: [0.5], pseudoReferenceBest: [0.5] },
    { tau: 0.5, reviewSentenceBest: "none", pseudoReferenceBest: [0.5] },
    { tau: 0.5, reviewSentenceBest: [0.5, "0.4"], pseudoReferenceBest: [0.5] },
    { tau: 0.5, reviewSentenceBest: [0.5], pseudoReferenceBest: [undefined] },
    { tau: 0.5, reviewSentenceBest: [0.5], pseudoReferenceBest: [-Infinity] },
    { tau: 0.5, reviewSentenceBest: [0.5] },
  ];

  test("a detail is read when the schema parses it, with its τ and its sorted matches, whatever the other details", () => {
    const details = new Map<string, unknown>(broken.map((detail, k) => [`broken${k}`, detail]));
    for (let i = 0; i < 300; i++) details.set(`r${i}`, random() < 0.3 ? broken[Math.floor(random() * broken.length)] : valid());
    const matches = sweepMatches(details);
    for (const [id, detail] of details) {
      const parsed = schema.safeParse(detail);
      expect(matches.has(id)).toBe(parsed.success);
      if (parsed.success) expect(matches.get(id)).toEqual({ tau: parsed.data.tau, sorted: sortOne(parsed.data) });
    }
    const reversed = sweepMatches(new Map([...details].reverse()));
    expect(new Map([...reversed].reverse())).toEqual(matches);
    expect([...matches.values()].map((m) => m.sorted)).toEqual(sortAllBestMatches([...details.values()].flatMap((d) => { const p = schema.safeParse(d); return p.success ? [p.data] : []; })));
  });

  test("τ_GT reads the references' details as the schema does", () => {
    const references = Array.from({ length: 40 }, (_, i) => ({ detail: i % 4 === 0 ? broken[i % broken.length] : valid(), annotated: i % 3 === 0 }));
    const parsedOnly = references.map((r) => ({ ...r, detail: schema.safeParse(r.detail).success ? r.detail : null }));
    expect(referenceTau(references)).toBe(referenceTau(parsedOnly));
    expect(referenceTau(references)).not.toBeNull();
    expect(referenceTau(broken.map((detail) => ({ detail, annotated: false })))).toBeNull();
  });
});
