/**
 * Dawid and Skene's (1979) latent-class model of categorical ratings: every item has an unknown
 * true class j (prior p_j) and every rater k answers class l with probability π^k_{jl} (their
 * confusion matrix). Maximum likelihood by EM (the paper's §3): start from each item's share of
 * answers per class (§4), then alternate
 *   M-step: p_j = mean_i T_ij,  π^k_{jl} ∝ Σ_i T_ij n_ikl
 *   E-step: T_ij ∝ p_j Π_k Π_l (π^k_{jl})^{n_ikl}
 * until the log-likelihood stops rising. A rater may rate an item several times (the paper's
 * first anaesthetist rated every patient three times): n_ikl counts the answers.
 *
 * A rater's competence is the probability they give the true class, Σ_j p_j π^k_{jj}.
 */
import type { Rating, AnswerValue } from "./types";

export interface DawidSkeneOptions {
  /** Classes in order; default: the values seen, sorted. */
  scale?: readonly AnswerValue[];
  /** Stop when the log-likelihood rises by less than this. */
  tolerance?: number;
  maxIterations?: number;
}

export interface DawidSkeneResult {
  classes: AnswerValue[];
  /** Estimated share of items in each true class (p_j). */
  priors: number[];
  raters: string[];
  /** Per rater, π[j][l]: probability of answering class l for an item of true class j. */
  confusion: number[][][];
  /** Per rater, Σ_j p_j π_jj. */
  competence: number[];
  items: string[];
  /** Per item, the posterior probability of each true class (T_ij). */
  posteriors: number[][];
  logLikelihood: number;
  iterations: number;
}

export function dawidSkene(ratings: readonly Rating[], options: DawidSkeneOptions = {}): DawidSkeneResult {
  const classes = options.scale ? [...options.scale] : [...new Set(ratings.map((r) => r.value))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const items = [...new Set(ratings.map((r) => r.item))];
  const raters = [...new Set(ratings.map((r) => r.rater))];
  const J = classes.length;
  const classIndex = new Map(classes.map((c, j) => [c, j]));
  const itemIndex = new Map(items.map((item, i) => [item, i]));
  const raterIndex = new Map(raters.map((rater, k) => [rater, k]));
  // answers[i]: (rater, class) of each answer to item i
  const answers: { k: number; l: number }[][] = items.map(() => []);
  for (const r of ratings) {
    const l = classIndex.get(r.value);
    if (l === undefined) throw new RangeError(`rating ${String(r.value)} is not one of the classes ${classes.join(", ")}`);
    answers[itemIndex.get(r.item)!].push({ k: raterIndex.get(r.rater)!, l });
  }

  // Initial T: each item's share of answers per class.
  let T = answers.map((list) => {
    const row = new Array<number>(J).fill(0);
    for (const { l } of list) row[l] += 1 / list.length;
    return row;
  });
  let priors: number[] = [];
  let confusion: number[][][] = [];
  let logLikelihood = -Infinity;
  let iterations = 0;
  const tolerance = options.tolerance ?? 1e-12;
  const maxIterations = options.maxIterations ?? 1000;

  const mStep = () => {
    priors = Array.from({ length: J }, (_, j) => T.reduce((sum, row) => sum + row[j], 0) / items.length);
    confusion = raters.map(() => Array.from({ length: J }, () => new Array<number>(J).fill(0)));
    answers.forEach((list, i) => {
      for (const { k, l } of list) for (let j = 0; j < J; j++) confusion[k][j][l] += T[i][j];
    });
    for (const matrix of confusion) {
      for (const row of matrix) {
        const total = row.reduce((a, b) => a + b, 0);
        for (let l = 0; l < J; l++) row[l] = total > 0 ? row[l] / total : 0;
      }
    }
  };

  while (iterations < maxIterations) {
    iterations++;
    mStep();
    let total = 0;
    T = answers.map((list) => {
      const log = priors.map((p, j) => list.reduce((sum, { k, l }) => sum + Math.log(confusion[k][j][l]), Math.log(p)));
      const max = Math.max(...log);
      if (max === -Infinity) return new Array<number>(J).fill(1 / J);
      const weights = log.map((v) => Math.exp(v - max));
      const sum = weights.reduce((a, b) => a + b, 0);
      total += max + Math.log(sum);
      return weights.map((w) => w / sum);
    });
    const rise = total - logLikelihood;
    logLikelihood = total;
    if (rise < tolerance) break;
  }
  mStep();
  const competence = confusion.map((matrix) => priors.reduce((sum, p, j) => sum + p * matrix[j][j], 0));
  return { classes, priors, raters, confusion, competence, items, posteriors: T, logLikelihood, iterations };
}
