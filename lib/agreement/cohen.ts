import { pairConfusions, type PairConfusions, pairedValues } from "./pairs";
import { asTable, type AnswersInput, type AnswerTable, type TableOptions } from "./table";
import { constantRaterNote } from "./reasons";
import type { AgreementResult, WeightScheme } from "./types";
import { agreementWeights } from "./weights";

export interface CohenResult extends AgreementResult {
  /** (Weighted) observed agreement p_o = 1 - Σw̄O/N, w̄ the disagreement weights scaled to [0, 1]. */
  observedAgreement: number | null;
  /** (Weighted) chance agreement p_e from the two raters' marginals. κ = (p_o - p_e)/(1 - p_e). */
  expectedAgreement: number | null;
  weights: WeightScheme;
}

export interface CohenOptions extends TableOptions {
  /** The two raters; optional when the data has exactly two. */
  raters?: readonly [string, string];
  /** Default "unweighted". */
  weights?: WeightScheme;
  /** How reasons name the two raters (display names or e-mails); default their ids. */
  names?: readonly [string, string];
}

/**
 * Cohen's kappa for two raters on the items both rated, as sklearn `cohen_kappa_score`
 * (CRScore §4.1 reports 0.804): with confusion matrix O and
 * E = outer(row sums, column sums)/N, κ = 1 - Σ w O / Σ w E, where the disagreement weights
 * are on label **indices** i, j: unweighted [i≠j], linear |i-j|, quadratic (i-j)².
 * The labels are the sorted union of the two raters' values on the paired items (so weights
 * treat {1, 2, 5} as equally spaced, and string labels sort lexicographically, "10" < "2"),
 * or the declared `scale` (sklearn `labels=`). Both raters constant on one category gives
 * 0/0 (sklearn NaN): here null with a reason; one constant rater gives 0, as in sklearn.
 */
export function cohenKappa(input: AnswersInput, options: CohenOptions = {}): CohenResult {
  const table = asTable(input, options);
  const scheme = options.weights ?? "unweighted";
  const undefinedResult = (reason: string, n = 0): CohenResult => ({ value: null, reason, n, observedAgreement: null, expectedAgreement: null, weights: scheme });
  if (!options.raters && table.raters.length > 2) throw new RangeError(`the data has ${table.raters.length} raters; name the pair in options.raters`);
  const raters = options.raters ?? table.raters;
  if (raters.length < 2) return undefinedResult(`Cohen's kappa needs two raters; the data has ${raters.length}`);
  if (raters[0] === raters[1]) return undefinedResult("the two raters are the same");
  const missing = raters.find((r) => !table.raters.includes(r));
  if (missing !== undefined) return undefinedResult(`rater ${missing} has no ratings`);

  const pairs = pairedValues(table, raters[0], raters[1]);
  const n = pairs.items.length;
  const q = table.scale.length;
  const counts: number[] = new Array<number>(q * q).fill(0);
  for (let i = 0; i < n; i++) counts[pairs.a[i] * q + pairs.b[i]]++;
  return kappaFromConfusion(counts, n, q, table.scaleDeclared, scheme, options.names ?? [raters[0], raters[1]]);
}

/** No confusion counts: a pair that rated no item in common (kappaFromConfusion reads none when n = 0). */
const NO_COUNTS = new Float64Array(0);

/**
 * Cohen's kappa of raters i < j (indices into table.raters) on the items both rated, as
 * cohenKappa reports it, from the table's pair confusions (all pairs tallied in one pass), or
 * from `confusions` of a subset of its items (then as cohenKappa reports it on the subset's table).
 */
export function pairKappa(table: AnswerTable, i: number, j: number, scheme: WeightScheme, names: readonly [string, string], confusions: PairConfusions = pairConfusions(table)): CohenResult {
  const { n, counts } = confusions;
  const pair = i * table.raters.length + j;
  return kappaFromConfusion(counts[pair] ?? NO_COUNTS, n[pair], table.scale.length, table.scaleDeclared, scheme, names);
}

/**
 * Cohen's kappa of a pair of raters from its confusion counts over the q scale categories
 * (row-major, rows rater A's category; n their total; `declared` and the labels as in
 * pairAgreement), as cohenKappa reports it; `names` name the raters in reasons.
 */
function kappaFromConfusion(counts: ArrayLike<number>, n: number, q: number, declared: boolean, scheme: WeightScheme, names: readonly [string, string]): CohenResult {
  const undefinedResult = (reason: string): CohenResult => ({ value: null, reason, n, observedAgreement: null, expectedAgreement: null, weights: scheme });
  if (n === 0) return undefinedResult(`raters ${names[0]} and ${names[1]} rated no item in common`);
  const { po, pe } = pairAgreement(counts, n, q, declared, scheme);
  if (pe >= 1) return { ...undefinedResult("both raters used one and the same category throughout, so kappa is 0/0"), observedAgreement: po, expectedAgreement: pe };
  const constant = constantRater(counts, q);
  const note = constant === null ? undefined : constantRaterNote(names[constant], names[1 - constant]);
  return { value: (po - pe) / (1 - pe), n, ...(note === undefined ? {} : { note }), observedAgreement: po, expectedAgreement: pe, weights: scheme };
}

/** 0 when rater A used one category on every paired item, 1 for rater B, else null (confusion counts row-major, rows A). */
function constantRater(counts: ArrayLike<number>, q: number): 0 | 1 | null {
  let rows = 0;
  let columns = 0;
  for (let v = 0; v < q; v++) {
    let row = 0;
    let column = 0;
    for (let x = 0; x < q; x++) {
      row += counts[v * q + x];
      column += counts[x * q + v];
    }
    if (row > 0) rows++;
    if (column > 0) columns++;
  }
  return rows === 1 ? 0 : columns === 1 ? 1 : null;
}

const weightsByLabels = new Map<string, number[][]>();

/** The agreement weights of `labels` label indices 0, 1, …, made once per scheme and count (pairAgreement runs per pair, batch and resample). */
function labelWeights(scheme: WeightScheme, labels: number): number[][] {
  const key = `${scheme} ${labels}`;
  let w = weightsByLabels.get(key);
  if (!w) weightsByLabels.set(key, (w = agreementWeights(scheme, Array.from({ length: labels }, (_, i) => i))));
  return w;
}

/**
 * Observed and chance agreement p_o, p_e of a pair of raters from its confusion counts over
 * the q scale categories (row-major, row: rater A's category; n = their total), with
 * sklearn's labels: the declared scale, or else the categories either rater used. Counts are
 * integers, so however they were tallied (pair by pair, or resample multiplicities), p_o and
 * p_e come out the same to the last bit.
 */
export function pairAgreement(counts: ArrayLike<number>, n: number, q: number, declared: boolean, scheme: WeightScheme): { po: number; pe: number } {
  // Label index of each scale category: all of a declared scale, else only the values used.
  // Small plain arrays: this runs for every pair of raters on every batch and resample.
  const used: boolean[] = new Array<boolean>(q).fill(declared);
  for (let v = 0; v < q; v++) for (let x = 0; x < q; x++) if (counts[v * q + x] > 0) used[v] = used[x] = true;
  const label: number[] = new Array<number>(q).fill(0);
  let labels = 0;
  for (let v = 0; v < q; v++) if (used[v]) label[v] = labels++;
  const confusion: number[] = new Array<number>(labels * labels).fill(0);
  const rowSum: number[] = new Array<number>(labels).fill(0);
  const colSum: number[] = new Array<number>(labels).fill(0);
  for (let v = 0; v < q; v++) {
    for (let x = 0; x < q; x++) {
      const c = counts[v * q + x];
      if (c === 0) continue;
      confusion[label[v] * labels + label[x]] += c;
      rowSum[label[v]] += c;
      colSum[label[x]] += c;
    }
  }
  const w = labelWeights(scheme, labels);
  let po = 0;
  let pe = 0;
  for (let k = 0; k < labels; k++) {
    for (let l = 0; l < labels; l++) {
      po += w[k][l] * confusion[k * labels + l];
      pe += w[k][l] * rowSum[k] * colSum[l];
    }
  }
  po /= n;
  pe /= n * n;
  return { po, pe };
}
