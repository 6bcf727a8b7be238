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
import { type BestMatches, countAboveSorted, crscoreFromCounts, meanSentenceBest, sortAllBestMatches, type SortedBestMatches } from "@/lib/metrics";
import { kendallTauBOfTable, rankAverage, spearmanOfRanks } from "@/lib/stats";

/** A stored CRScore detail: the τ it was scored at and its best matches (other fields ignored). */
type StoredDetail = BestMatches & { tau: number };

const isMatch = (v: unknown) => v === null || (typeof v === "number" && Number.isFinite(v));

/**
 * The detail as a StoredDetail, or null when it is not one: a finite τ and two lists of finite
 * numbers or nulls. Checked in place rather than by a schema that copies every detail (25,000
 * of them took 15 ms and their garbage).
 */
function storedDetail(detail: unknown): StoredDetail | null {
  if (typeof detail !== "object" || detail === null || Array.isArray(detail)) return null;
  const { tau, reviewSentenceBest, pseudoReferenceBest } = detail as Record<string, unknown>;
  const valid = typeof tau === "number" && Number.isFinite(tau) && Array.isArray(reviewSentenceBest) && reviewSentenceBest.every(isMatch) && Array.isArray(pseudoReferenceBest) && pseudoReferenceBest.every(isMatch);
  return valid ? (detail as StoredDetail) : null;
}

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
    const d = storedDetail(r.detail);
    return d !== null && d.reviewSentenceBest.some((v) => v !== null) ? [{ ...d, annotated: r.annotated }] : [];
  });
  const unannotated = parsed.filter((r) => !r.annotated);
  const { tau } = meanSentenceBest(unannotated.length > 0 ? unannotated : parsed);
  return tau === null ? null : Number(tau.toFixed(4));
}

type Field = (typeof FIELD)[keyof typeof FIELD];

/**
 * Every value a CRScore column can take on the reviews, at any τ, numbered by rank: a review's
 * score is crscoreFromCounts of its numbers of sentences and pseudo-references and of how many
 * of each have a best match above τ, so each shape of review (those two numbers) has a small
 * block of possible scores, (sentences + 1) × (pseudo-references + 1), listed once. Equal
 * values share a rank: a row of the (score, human score) count tables.
 */
class ScoreGrid {
  /** Per review: the first cell of its shape's block, and the block's row length (pseudo-references + 1). */
  private readonly start: Int32Array;
  private readonly stride: Int32Array;
  /** Per cell: the score, and its rank among the distinct scores. */
  readonly value: Float64Array;
  readonly rank: Int32Array;
  readonly ranks: number;

  /** `matches`: reviews with pseudo-references (a score at every τ). */
  constructor(field: Field, matches: readonly { sorted: SortedBestMatches }[]) {
    const blocks = new Map<number, Map<number, number>>();
    const values: number[] = [];
    // Int32Array.from(array) rather than Int32Array.from(reviews, f): V8 has no fast path for a mapping function (2 ms for 22,500 reviews, against 0.4).
    const blockStart = ({ sorted: { reviewSentences, pseudoReferences } }: { sorted: SortedBestMatches }) => {
      let bySentences = blocks.get(pseudoReferences);
      if (!bySentences) blocks.set(pseudoReferences, (bySentences = new Map()));
      let start = bySentences.get(reviewSentences);
      if (start === undefined) {
        bySentences.set(reviewSentences, (start = values.length));
        for (let s = 0; s <= reviewSentences; s++) for (let p = 0; p <= pseudoReferences; p++) values.push(crscoreFromCounts(reviewSentences, s, pseudoReferences, p)[field] as number);
      }
      return start;
    };
    this.start = Int32Array.from(matches.map(blockStart));
    this.stride = Int32Array.from(matches.map((m) => m.sorted.pseudoReferences + 1));
    this.value = Float64Array.from(values);
    const distinct = [...new Set(values)].sort((a, b) => a - b);
    const rankOf = new Map(distinct.map((v, k) => [v, k]));
    this.rank = Int32Array.from(values, (v) => rankOf.get(v) as number);
    this.ranks = distinct.length;
  }

  /** The cell of review r when `sentencesAbove` of its sentences and `pseudoReferencesAbove` of its pseudo-references are above τ. */
  cell(r: number, sentencesAbove: number, pseudoReferencesAbove: number): number {
    return this.start[r] + sentencesAbove * this.stride[r] + pseudoReferencesAbove;
  }
}

/** The first index t with v <= taus[t] (taus ascending), or taus.length. */
function firstTauAtOrAbove(taus: readonly number[], v: number): number {
  let lo = 0;
  let hi = taus.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v <= taus[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The reviews' best matches grouped by the threshold at which they stop counting: match e of
 * group t (start[t] <= e < start[t + 1]) belongs to review `review[e]`, a pseudo-reference's
 * when `pseudoReference[e]`, and is at or below taus[t] but above the thresholds before it
 * (countAboveSorted counts strictly above). Matches at or below taus[0] never count, and those
 * above the last threshold always do: neither is listed.
 */
function matchesByThreshold(matches: readonly { sorted: SortedBestMatches }[], taus: readonly number[]): { start: Int32Array; review: Int32Array; pseudoReference: Uint8Array } {
  let count = 0;
  for (const { sorted } of matches) count += sorted.reviewSentenceBest.length + sorted.pseudoReferenceBest.length;
  // Every match's threshold, review and list, in review order; then grouped by threshold (a counting sort).
  const threshold = new Int32Array(count);
  const owner = new Int32Array(count);
  const isPseudoReference = new Uint8Array(count);
  let m = 0;
  for (let r = 0; r < matches.length; r++) {
    const { reviewSentenceBest, pseudoReferenceBest } = matches[r].sorted;
    for (let k = 0; k < reviewSentenceBest.length; k++, m++) {
      threshold[m] = firstTauAtOrAbove(taus, reviewSentenceBest[k]);
      owner[m] = r;
    }
    for (let k = 0; k < pseudoReferenceBest.length; k++, m++) {
      threshold[m] = firstTauAtOrAbove(taus, pseudoReferenceBest[k]);
      owner[m] = r;
      isPseudoReference[m] = 1;
    }
  }
  const listed = (t: number) => t > 0 && t < taus.length;
  const start = new Int32Array(taus.length + 1);
  for (let e = 0; e < count; e++) if (listed(threshold[e])) start[threshold[e] + 1]++;
  for (let t = 0; t < taus.length; t++) start[t + 1] += start[t];
  const next = start.slice(0, taus.length);
  const review = new Int32Array(start[taus.length]);
  const pseudoReference = new Uint8Array(review.length);
  for (let e = 0; e < count; e++) {
    const t = threshold[e];
    if (!listed(t)) continue;
    review[next[t]] = owner[e];
    pseudoReference[next[t]++] = isPseudoReference[e];
  }
  return { start, review, pseudoReference };
}

/**
 * The reviews of a sweep that have a score (a score is null only for a review without
 * pseudo-references, crscoreFromCounts, at every τ), in their order, with their human scores'
 * levels (the distinct human scores, ascending) and the ScoreGrid of their possible scores.
 */
export class ScoredReviews {
  readonly reviews: readonly { human: number; sorted: SortedBestMatches }[];
  readonly human: Float64Array;
  /** The human scores' average ranks: the same at every τ. */
  readonly humanRanks: Float64Array;
  readonly level: Int32Array;
  readonly levels: number;
  readonly grid: ScoreGrid;

  constructor(field: Field, matches: readonly { human: number; sorted: SortedBestMatches }[]) {
    this.reviews = matches.filter((m) => m.sorted.pseudoReferences > 0);
    this.human = Float64Array.from(this.reviews.map((m) => m.human));
    this.humanRanks = rankAverage(this.human);
    const humans = [...new Set(this.human)].sort((a, b) => a - b);
    const humanLevel = new Map(humans.map((h, level) => [h, level]));
    this.level = Int32Array.from(this.human.map((h) => humanLevel.get(h) as number));
    this.levels = humans.length;
    this.grid = new ScoreGrid(field, this.reviews);
  }

  /** An empty table of (score rank, human level) counts, and its rows as kendallTauBOfTable reads them. */
  table(): { counts: Float64Array; rows: Float64Array[] } {
    const counts = new Float64Array(this.grid.ranks * this.levels);
    return { counts, rows: Array.from({ length: this.grid.ranks }, (_, k) => counts.subarray(k * this.levels, (k + 1) * this.levels)) };
  }

  /**
   * Each review's score at τ, its average rank among them (rankAverage's, read from the counts
   * of each score rank instead of sorting), and the table of their (score, human score) counts.
   */
  at(tau: number): { x: Float64Array; ranks: Float64Array; rows: Float64Array[] } {
    const n = this.reviews.length;
    const x = new Float64Array(n);
    const rankOf = new Int32Array(n);
    const { counts, rows } = this.table();
    this.reviews.forEach(({ sorted }, r) => {
      const cell = this.grid.cell(r, countAboveSorted(sorted.reviewSentenceBest, tau), countAboveSorted(sorted.pseudoReferenceBest, tau));
      x[r] = this.grid.value[cell];
      rankOf[r] = this.grid.rank[cell];
      counts[rankOf[r] * this.levels + this.level[r]]++;
    });
    // Score rank k's reviews hold sorted positions below..below+c-1, whose mean rank is (below+1+below+c)/2.
    const midRank = new Float64Array(this.grid.ranks);
    let below = 0;
    rows.forEach((row, k) => {
      const c = row.reduce((s, v) => s + v, 0);
      midRank[k] = (below + 1 + below + c) / 2;
      below += c;
    });
    const ranks = new Float64Array(n);
    for (let r = 0; r < n; r++) ranks[r] = midRank[rankOf[r]];
    return { x, ranks, rows };
  }
}

/**
 * Kendall's τ-b of a CRScore column with the human score at each of `taus` (ascending), as
 * kendallTauB of the reviews with a score at each τ, without scoring every review at every τ:
 * a review's score changes only where τ passes one of its best matches, so its counts of
 * matches above τ are updated as τ passes them and its score read from the ScoreGrid, tallied
 * in a table of (score, human score) counts that kendallTauBOfTable reads (a score no review
 * has at τ is a row of zeros, which counts for nothing).
 */
export function kendallScan(scored: ScoredReviews, taus: readonly number[]): (number | null)[] {
  if (taus.length === 0) return [];
  const { reviews, grid, level, levels } = scored;
  const { counts, rows } = scored.table();
  const sentencesAbove = Int32Array.from(reviews.map((m) => countAboveSorted(m.sorted.reviewSentenceBest, taus[0])));
  const pseudoReferencesAbove = Int32Array.from(reviews.map((m) => countAboveSorted(m.sorted.pseudoReferenceBest, taus[0])));
  const tally = (r: number, count: number) => {
    counts[grid.rank[grid.cell(r, sentencesAbove[r], pseudoReferencesAbove[r])] * levels + level[r]] += count;
  };
  for (let r = 0; r < reviews.length; r++) tally(r, 1);
  const passed = matchesByThreshold(reviews, taus);
  return taus.map((_, t) => {
    for (let e = passed.start[t]; e < passed.start[t + 1]; e++) {
      const r = passed.review[e];
      tally(r, -1);
      if (passed.pseudoReference[e]) pseudoReferencesAbove[r]--;
      else sentencesAbove[r]--;
      tally(r, 1);
    }
    return kendallTauBOfTable(rows).statistic;
  });
}

/** A review's stored CRScore detail, ready for the sweep: the τ it was scored at and its best matches, sorted. */
export interface SweepMatches {
  tau: number;
  sorted: SortedBestMatches;
}

/**
 * The stored details that parse, ready for the sweep (sorted once: the scan asks for every
 * review's score at a hundred thresholds). It needs the metric's values alone, so the report
 * prepares them while the ratings are still being read.
 */
export function sweepMatches(details: ReadonlyMap<string, unknown>): Map<string, SweepMatches> {
  const ids: string[] = [];
  const stored: StoredDetail[] = [];
  for (const [reviewId, detail] of details) {
    const d = storedDetail(detail);
    if (d === null) continue;
    ids.push(reviewId);
    stored.push(d);
  }
  const sorted = sortAllBestMatches(stored);
  return new Map(ids.map((id, k) => [id, { tau: stored[k].tau, sorted: sorted[k] }]));
}

/** The sweep for a CRScore column over reviews with a stored detail (sweepMatches) and a human score; null when details are missing. */
export function thresholdSweep(metric: keyof typeof FIELD, points: readonly { reviewId: string; human: number }[], matches: ReadonlyMap<string, SweepMatches>, tauGt: number | null = null): SweepRow[] | null {
  const stored = points.map((p) => matches.get(p.reviewId));
  if (stored.length === 0 || stored.some((m) => m === undefined)) return null;
  const storedTau = (stored[0] as SweepMatches).tau;
  const scored = new ScoredReviews(FIELD[metric], points.map((p, k) => ({ human: p.human, sorted: (stored[k] as SweepMatches).sorted })));
  const row = (tau: number, kind: SweepRow["kind"]): SweepRow => {
    const { x, ranks, rows } = scored.at(tau);
    const rho = spearmanOfRanks(ranks, scored.humanRanks);
    const tauB = kendallTauBOfTable(rows);
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
  const scan = kendallScan(scored, BEST_SCAN);
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
