/**
 * CRScore's robustness to τ (CRScore Table 18): Con / Comp / Rel recomputed, from the best
 * matches each score keeps in its detail (no embedding again), at the paper's grid (0.60 to
 * 0.80), at the τ the scores were stored with (the paper's, a calibrated one, or a given one), at
 * τ_GT (the paper's procedure on the human reference reviews' stored best matches, see
 * referenceTau) and at τ_best (the threshold of 0.01 to 0.99 with the highest Kendall τ-b on this
 * data), and correlated with the human score. Another embedder's similarities have another
 * scale (the offline TF-IDF default's calibrated τ is near 0.16), so its grid rows mostly say
 * that the paper's grid does not carry over; the stored and best rows are its own.
 */
import { z } from "zod";
import { crscoreFromSortedMatches, meanSentenceBest, sortBestMatches, type SortedBestMatches } from "@/lib/metrics";
import { identityOrder, kendallTauB, kendallTauBOfTable, sortIndicesBy, spearman } from "@/lib/stats";

const detailSchema = z.object({
  tau: z.number(),
  reviewSentenceBest: z.array(z.number().nullable()),
  pseudoReferenceBest: z.array(z.number().nullable()),
});

/** CRScore Table 18's grid of thresholds (for mxbai-embed-large-v1, whose τ_best is 0.7314). */
export const TABLE_18_TAUS = [0.6, 0.65, 0.7, 0.75, 0.8];
/** Thresholds searched for τ_best on the study's own data: 0.01 to 0.99 by 0.01. */
const BEST_SCAN = Array.from({ length: 99 }, (_, i) => (i + 1) / 100);

const FIELD = { "crscore-con": "conciseness", "crscore-comp": "comprehensiveness", "crscore-rel": "relevance" } as const;

export interface SweepRow {
  tau: number;
  /** "grid" (Table 18's), "stored" (the τ the stored scores use), "gt" (τ_GT) or "best" (τ_best on this data). */
  kind: "grid" | "stored" | "gt" | "best";
  /** True for the τ the stored scores use. */
  stored: boolean;
  n: number;
  meanMetric: number | null;
  spearman: { statistic: number | null; pValue: number | null };
  kendall: { statistic: number | null; pValue: number | null };
}

export function isCrscoreColumn(metric: string): metric is keyof typeof FIELD {
  return metric in FIELD;
}

/**
 * τ_GT (CRScore §3.3, footnote 6) from stored scores: the mean best similarity of the human
 * reference reviews' sentences, on the changes nobody annotated when there are such, else on
 * all; rounded to 4 decimals as signatures record τ. Null when no reference has a stored detail
 * with a defined best match.
 */
export function referenceTau(references: readonly { detail: unknown; annotated: boolean }[]): number | null {
  const parsed = references.flatMap((r) => {
    const d = detailSchema.safeParse(r.detail);
    return d.success && d.data.reviewSentenceBest.some((v) => v !== null) ? [{ ...d.data, annotated: r.annotated }] : [];
  });
  const unannotated = parsed.filter((r) => !r.annotated);
  const { tau } = meanSentenceBest(unannotated.length > 0 ? unannotated : parsed);
  return tau === null ? null : Number(tau.toFixed(4));
}

/**
 * Kendall's τ-b of a CRScore column with the human score at each of `taus` (ascending), as
 * kendallTauB of the reviews with a score at each τ, without scoring every review at every τ:
 * a review's score changes only where τ passes one of its best matches, so the matches are
 * sorted once, the reviews they belong to rescored as τ passes them, and the scores tallied in
 * a table of (score, human score) counts that kendallTauBOfTable reads.
 */
export function kendallScan(field: (typeof FIELD)[keyof typeof FIELD], matches: readonly { human: number; sorted: SortedBestMatches }[], taus: readonly number[]): (number | null)[] {
  if (taus.length === 0) return [];
  const score = (m: { sorted: SortedBestMatches }, tau: number) => crscoreFromSortedMatches(m.sorted, tau)[field];
  // A score is null only for a review without pseudo-references, at every τ.
  const scored = matches.filter((m) => score(m, taus[0]) !== null);
  const humans = [...new Set(scored.map((m) => m.human))].sort((a, b) => a - b);
  const humanLevel = new Map(humans.map((h, level) => [h, level]));
  const level = Int32Array.from(scored, (m) => humanLevel.get(m.human) as number);
  // Score → counts per human level, and each review's row (a row may fall to zeros; it then counts for nothing).
  const table = new Map<number, Float64Array>();
  const rowOf: Float64Array[] = [];
  const place = (r: number, x: number) => {
    let row = table.get(x);
    if (!row) table.set(x, (row = new Float64Array(humans.length)));
    row[level[r]]++;
    rowOf[r] = row;
  };
  scored.forEach((m, r) => place(r, score(m, taus[0]) as number));
  const values: number[] = [];
  const owners: number[] = [];
  scored.forEach((m, r) => {
    for (const list of [m.sorted.reviewSentenceBest, m.sorted.pseudoReferenceBest]) {
      for (const v of list) {
        values.push(v);
        owners.push(r);
      }
    }
  });
  const order = sortIndicesBy(values, identityOrder(values.length));
  let next = 0;
  return taus.map((tau) => {
    // Matches at or below τ no longer count (countAboveSorted: strictly above).
    for (; next < order.length && values[order[next]] <= tau; next++) {
      const r = owners[order[next]];
      rowOf[r][level[r]]--;
      place(r, score(scored[r], tau) as number);
    }
    return kendallTauBOfTable([...table.keys()].sort((a, b) => a - b).map((k) => table.get(k) as Float64Array));
  });
}

/** The sweep for a CRScore column over reviews with a stored detail and a human score; null when details are missing. */
export function thresholdSweep(metric: keyof typeof FIELD, points: readonly { reviewId: string; human: number }[], details: ReadonlyMap<string, unknown>, tauGt: number | null = null): SweepRow[] | null {
  const parsed = points.map((p) => ({ human: p.human, detail: detailSchema.safeParse(details.get(p.reviewId)) }));
  if (parsed.length === 0 || parsed.some((p) => !p.detail.success)) return null;
  const storedTau = (parsed[0].detail.data as z.infer<typeof detailSchema>).tau;
  // Sorted once: the scan below asks for every review's score at a hundred thresholds.
  const matches = parsed.map((p) => ({ human: p.human, sorted: sortBestMatches(p.detail.data as z.infer<typeof detailSchema>) }));
  const pairs = (tau: number) => {
    const x: number[] = [];
    const y: number[] = [];
    for (const m of matches) {
      const value = crscoreFromSortedMatches(m.sorted, tau)[FIELD[metric]];
      if (value === null) continue;
      x.push(value);
      y.push(m.human);
    }
    return { x, y };
  };
  const row = (tau: number, kind: SweepRow["kind"]): SweepRow => {
    const { x, y } = pairs(tau);
    const rho = spearman(x, y);
    const tauB = kendallTauB(x, y);
    return {
      tau,
      kind,
      stored: kind === "stored",
      n: x.length,
      meanMetric: x.length === 0 ? null : x.reduce((s, v) => s + v, 0) / x.length,
      spearman: { statistic: rho.statistic, pValue: rho.pValue },
      kendall: { statistic: tauB.statistic, pValue: tauB.pValue },
    };
  };
  // The scan needs Kendall's tau-b alone; the full row is computed for the winner only.
  let bestTau: number | null = null;
  let bestKendall = -Infinity;
  const scan = kendallScan(FIELD[metric], matches, BEST_SCAN);
  BEST_SCAN.forEach((tau, t) => {
    const kendall = scan[t];
    if (kendall !== null && (bestTau === null || kendall > bestKendall)) {
      bestTau = tau;
      bestKendall = kendall;
    }
  });
  const best = bestTau === null ? null : row(bestTau, "best");
  const rows = [...TABLE_18_TAUS.filter((t) => t !== storedTau).map((t) => row(t, "grid")), row(storedTau, "stored"), ...(tauGt !== null && tauGt !== storedTau ? [row(tauGt, "gt")] : []), ...(best ? [best] : [])];
  return rows.sort((a, b) => a.tau - b.tau);
}
