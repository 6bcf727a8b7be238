/**
 * The pure parts of SWE-Judge: candidate teams (§3.2 "Initial Teaming"), team trials on a few
 * annotated samples (§3.2), score ensembling and the linear map from 0-100 onto the target
 * scale (§3.3). No model is called here: strategy scores come in as numbers.
 */
import { AppError } from "@/lib/errors";
import { kendallTauB, pearson, seededRandom, spearman } from "@/lib/stats";
import { SWE_STRATEGIES, type SweStrategy } from "./swe-judge-prompts";
import type { Scale } from "./types";

/** 0-100 scores of one review by some strategies. */
export type StrategyScores = Partial<Record<SweStrategy, number>>;

/**
 * Every subset of `strategies` with at least `minSize` members, smaller teams first, each in
 * the order of `strategies`. For the six variants and minSize 2: Σ_{k=2..6} C(6, k) = 57 teams.
 */
export function candidateTeams(strategies: readonly SweStrategy[] = SWE_STRATEGIES, minSize = 2): SweStrategy[][] {
  if (new Set(strategies).size !== strategies.length) throw new RangeError("strategies must be distinct");
  const teams: SweStrategy[][] = [];
  for (let mask = 1; mask < 2 ** strategies.length; mask++) {
    const team = strategies.filter((_, i) => mask & (1 << i));
    if (team.length >= minSize) teams.push(team);
  }
  return teams.sort((a, b) => a.length - b.length);
}

/** §3.3 Score Ensembling: the mean of the team's scores; null when a member has none. */
export function ensembleScore(scores: StrategyScores, team: readonly SweStrategy[]): number | null {
  if (team.length === 0) throw new RangeError("a team needs at least one strategy");
  let sum = 0;
  for (const s of team) {
    const v = scores[s];
    if (v === undefined) return null;
    sum += v;
  }
  return sum / team.length;
}

/** §3.3 Mapping Score to Target Scale: min + ŝ/100 · (max − min), so ŝ/100 · 4 + 1 on 1-5. */
export function mapToScale(score: number, scale: Scale): number {
  if (!(score >= 0 && score <= 100)) throw new RangeError(`a SWE-Judge score is in [0, 100], got ${score}`);
  return scale.min + (score / 100) * (scale.max - scale.min);
}

/** The nearest whole point of the scale (halves round up), for category statistics such as Cohen's kappa (§5.2). */
export function toScalePoint(value: number, scale: Scale): number {
  return Math.min(scale.max, Math.max(scale.min, Math.floor(value + 0.5)));
}

/**
 * The numeric scale of a question whose answers are consecutive whole numbers (a Likert
 * dimension, a grade: 0-4, 1-5, ...), or INVALID_INPUT for a question of labels (§3.3 maps
 * onto a numeric scale only).
 */
export function scaleOfQuestion(question: { key: string; scale: readonly (string | number)[] }): Scale {
  const values = question.scale;
  const numeric = values.length >= 2 && values.every((v, i) => typeof v === "number" && Number.isInteger(v) && (i === 0 || v === (values[i - 1] as number) + 1));
  if (!numeric) throw new AppError("INVALID_INPUT", { message: `SWE-Judge maps onto a numeric scale; question "${question.key}" answers ${values.join(", ")}` });
  return { min: values[0] as number, max: values[values.length - 1] as number };
}

/** A 0-100 ensemble score on the question's scale (`scaleOfQuestion`): mapped linearly (§3.3), and its nearest point for κ (§5.2). */
export function sweJudgeOnScale(score: number, scale: Scale): { value: number; point: number } {
  const value = mapToScale(score, scale);
  return { value, point: toScalePoint(value, scale) };
}

export interface Correlations {
  kendall: number | null;
  spearman: number | null;
  pearson: number | null;
  /** §4.3 averaged correlation, (τ + r_s + r_p)/3; null when any is undefined (constant input). */
  mean: number | null;
}

/** Kendall's τ-b, Spearman's r_s and Pearson's r_p of predictions against human scores, and their mean (§3.2, §4.3). */
export function averagedCorrelation(predicted: readonly number[], human: readonly number[]): Correlations {
  const kendall = kendallTauB(predicted, human).statistic;
  const rs = spearman(predicted, human).statistic;
  const rp = pearson(predicted, human).statistic;
  const mean = kendall === null || rs === null || rp === null ? null : (kendall + rs + rp) / 3;
  return { kendall, spearman: rs, pearson: rp, mean };
}

/** One annotated sample: the human score and every candidate strategy's 0-100 score. */
export interface AnnotatedSample {
  human: number;
  scores: StrategyScores;
}

export interface TeamTrial {
  team: SweStrategy[];
  correlation: Correlations;
}

export interface TeamSelection {
  team: SweStrategy[];
  correlation: Correlations;
  /** Every candidate team, best first; undefined correlations last. */
  trials: TeamTrial[];
  /** Samples the trials used. */
  n: number;
}

/** Better first: higher averaged correlation, then fewer members (fewer calls), then candidate order. */
function compareTrials(a: TeamTrial & { order: number }, b: TeamTrial & { order: number }): number {
  const ma = a.correlation.mean ?? Number.NEGATIVE_INFINITY;
  const mb = b.correlation.mean ?? Number.NEGATIVE_INFINITY;
  return mb - ma || a.team.length - b.team.length || a.order - b.order;
}

/**
 * §3.2 Team Trials on A Few Annotated Samples: each candidate team's ensemble scores on the
 * samples are correlated with the human scores, and the team with the highest averaged
 * correlation (Kendall, Spearman, Pearson; §4.3) is selected. The linear map of §3.3 changes
 * none of the three, so teams are compared on 0-100. Every sample needs a score from every
 * strategy in `strategies`.
 */
export function selectTeam(samples: readonly AnnotatedSample[], options: { strategies?: readonly SweStrategy[]; minSize?: number } = {}): TeamSelection {
  const strategies = options.strategies ?? SWE_STRATEGIES;
  samples.forEach((sample, i) => {
    const missing = strategies.find((s) => sample.scores[s] === undefined);
    if (missing) throw new RangeError(`sample ${i} has no ${missing} score`);
  });
  const human = samples.map((s) => s.human);
  const trials = candidateTeams(strategies, options.minSize ?? 2)
    .map((team, order) => ({ team, order, correlation: averagedCorrelation(samples.map((s) => ensembleScore(s.scores, team) as number), human) }))
    .sort(compareTrials)
    .map(({ team, correlation }) => ({ team, correlation }));
  const best = trials[0];
  if (!best || best.correlation.mean === null) {
    throw new RangeError(`no team's scores correlate with the human scores on these ${samples.length} samples (too few, or constant scores)`);
  }
  return { team: best.team, correlation: best.correlation, trials, n: samples.length };
}

/** §3.2: `size` items drawn at random without replacement (seeded, reproducible), in their original order. */
export function calibrationSample<T>(items: readonly T[], size = 10, seed = 1): T[] {
  if (size >= items.length) return [...items];
  const random = seededRandom(seed);
  const index = items.map((_, i) => i);
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(random() * (index.length - i));
    [index[i], index[j]] = [index[j], index[i]];
  }
  return index
    .slice(0, size)
    .sort((a, b) => a - b)
    .map((i) => items[i]);
}
