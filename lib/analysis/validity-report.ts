/**
 * The validity dashboard's numbers for one automatic metric and one human question (and the
 * `validity` CLI's JSON): correlations overall and per language at the review or
 * system level (CRScore Tables 2, 3, 9, 11, 15; GradedReviews Table 5), the system ranking side
 * by side, the mean and distribution of the metric per human score level (CRScore Figure 8),
 * the Kolmogorov-Smirnov matrix between levels (GradedReviews Table 6), CRScore's threshold
 * sweep (Table 18), and human-human versus human-metric agreement (SWE-Judge RQ2).
 * The human score of a review is the mean over its annotators.
 */
import { pairKappa, answerTableFromColumns } from "@/lib/agreement";
import type { MetricValues } from "@/lib/data/metric-scores";
import { isTfidfModel } from "@/lib/embeddings";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { getReferenceMetric } from "@/lib/metrics";
import { rankAverage, systemRankCorrelation, type TestResult } from "@/lib/stats";
import { countedWork } from "./drafts";
import { inItemSet, type ItemSetFilter, itemSetStatement, type ItemSetStatement } from "./item-sets";
import { correlationSet, type CorrelationSet } from "./correlations";
import type { StudyForAnalysis } from "@/lib/data/studies";
import { humanScore, mean, type HumanScores } from "./human-scores";
import { quantileMap } from "./quantile-map";
import { type BootstrapSettings, bootstrapSettings } from "./resample";
import { groupByLevel, type KsCell, ksMatrix, type LevelSummary, summarizeLevel } from "./score-levels";
import { isCrscoreColumn, referenceTau, type SweepMatches, type SweepRow, thresholdSweep } from "./threshold-sweep";

export type CorrelationLevel = "review" | "system";

export interface ValidityOptions {
  /** MetricScore.metric, e.g. "bleu-gradedreviews" or "crscore-rel". */
  metric: string;
  /** Human question: a Likert dimension, "grade" or "high-quality". */
  human: string;
  /** Default "review". */
  level?: CorrelationLevel;
  /** Metric signature; default the variant computed most recently. */
  signature?: string;
  /** Include the human reference reviews. Default false: CRScore §5.2 leaves them out (a reference-based metric scores them 1). */
  includeReferences?: boolean;
  /** Count drafts (ratings of unsubmitted assignments) in the human scores too; by default only submitted work (lib/analysis/drafts.ts). */
  includeDrafts?: boolean;
  bootstrap?: Partial<BootstrapSettings>;
  /** Scatter points returned at most (an even sample in study order). Default 2000. */
  maxPoints?: number;
  /** Restrict to an item set (external ids `CODE_CHANGE_ID` or `CODE_CHANGE_ID/REVIEW_ID`). */
  items?: ItemSetFilter;
}

/** A review with both a metric value and a human score. */
export interface ReviewPoint {
  reviewId: string;
  system: string;
  language: string;
  metric: number;
  human: number;
}

export interface MetricInfo {
  name: string;
  signature: string;
  label: string;
  higherIsBetter: boolean;
  /** Embedding model named in the signature, null for text metrics. */
  embedder: string | null;
  /** True when computed with the offline TF-IDF embedder (labelled as such on every chart). */
  offlineEmbedder: boolean;
}

export interface SystemRow {
  system: string;
  n: number;
  metricMean: number;
  humanMean: number;
  /** 1 = best; ties share the mean rank. */
  metricRank: number;
  humanRank: number;
}

export interface HumanMetricAgreement {
  method: string;
  mapping: string;
  /** Annotator id → display name (e-mail when the name is empty), for the pairs below; absent from reports stored before it was added. */
  names?: Record<string, string>;
  humanHuman: { pairs: { a: string; b: string; value: number | null; n: number; reason?: string }[]; min: number | null; max: number | null; mean: number | null };
  humanMetric: { pairs: { annotator: string; value: number | null; n: number; reason?: string }[]; mean: number | null };
}

export interface ValidityReport {
  study: { id: string; slug: string; name: string };
  metric: MetricInfo;
  human: { question: string; task: TaskType; label: string; scale: number[]; aggregation: string };
  level: CorrelationLevel;
  /** The items the report counts: all of the study, or a named set with its kind, size and the ids that match no item. */
  itemSet: ItemSetStatement;
  settings: { bootstrap: BootstrapSettings & { method: string }; includeReferences: boolean; counted: string; levelRule: string };
  /** leftOutMissingText: human-scored reviews left out because they were imported without their text. */
  counts: { reviewsWithMetric: number; reviewsWithHuman: number; paired: number; leftOutMissingText: number; draftsLeftOut: number };
  correlations: { units: string; overall: CorrelationSet; byLanguage: (CorrelationSet & { language: string })[] };
  systems: { rows: SystemRow[]; unmatched: string[]; spearman: TestResult; kendall: TestResult };
  byHumanLevel: LevelSummary[];
  ksMatrix: { levels: number[]; matrix: (KsCell | null)[][] };
  thresholdSweep: SweepRow[] | null;
  humanMetricAgreement: HumanMetricAgreement | null;
  points: ReviewPoint[];
  pointsSampled: boolean;
}

const NAMED_METRICS: Record<string, string> = {
  "embedding-sim": "embeddingSim (cosine of embeddings, GradedReviews §5.1)",
  "crscore-con": "CRScore Con (conciseness)",
  "crscore-comp": "CRScore Comp (comprehensiveness)",
  "crscore-rel": "CRScore Rel (relevance)",
};

export function metricInfo(name: string, signature: string): MetricInfo {
  const reference = getReferenceMetric(name);
  const embedder = /(?:^|\|)emb:([^|]+)/.exec(signature)?.[1] ?? null;
  const offlineEmbedder = embedder !== null && isTfidfModel(embedder);
  const base = reference?.label ?? NAMED_METRICS[name] ?? name;
  return { name, signature, label: offlineEmbedder ? `${base} [offline TF-IDF embedder, not a neural model]` : base, higherIsBetter: reference?.higherIsBetter ?? true, embedder, offlineEmbedder };
}

/** Per-system means and their rank correlation (CRScore §5.2 "Comparing system rankings", Tables 2 and 15). */
export function systemRanking(points: readonly ReviewPoint[]): ValidityReport["systems"] {
  const result = systemRankCorrelation(
    points.map((p) => ({ system: p.system, score: p.metric })),
    points.map((p) => ({ system: p.system, score: p.human })),
  );
  const metricRanks = rankAverage(result.systems.map((s) => -s.meanA));
  const humanRanks = rankAverage(result.systems.map((s) => -s.meanB));
  return {
    rows: result.systems.map((s, i) => ({ system: s.system, n: s.nA, metricMean: s.meanA, humanMean: s.meanB, metricRank: metricRanks[i], humanRank: humanRanks[i] })),
    unmatched: result.unmatched,
    spearman: result.spearman,
    kendall: result.kendall,
  };
}

/** Correlations of the points, or of their system means at the system level. */
function unitCorrelations(points: readonly ReviewPoint[], level: CorrelationLevel, bootstrap: BootstrapSettings): CorrelationSet {
  if (level !== "system") return correlationSet(points.map((p) => p.metric), points.map((p) => p.human), bootstrap);
  const rows = systemRanking(points).rows;
  return correlationSet(rows.map((r) => r.metricMean), rows.map((r) => r.humanMean), bootstrap);
}

/**
 * Cohen's kappa (the question's weights) between every pair of annotators, and between each
 * annotator and the metric mapped onto the human scale by quantiles (see quantile-map.ts).
 */
export function humanMetricAgreement(points: readonly ReviewPoint[], human: HumanScores, higherIsBetter: boolean, names: ReadonlyMap<string, string>): HumanMetricAgreement | null {
  // The annotators' ratings of the points, then the metric's, as columns (point index, rater
  // index, value); the raters numbered as first seen.
  const { ratings } = human;
  const entries = points.map((p) => ratings.review.get(p.reviewId));
  let count = points.length;
  for (const k of entries) if (k !== undefined) count += ratings.first[k + 1] - ratings.first[k];
  const item = new Int32Array(count);
  const rater = new Int32Array(count);
  const value = new Float64Array(count);
  const raters: string[] = [];
  const raterIndex = new Int32Array(ratings.raters.length).fill(-1);
  let e = 0;
  entries.forEach((k, point) => {
    if (k === undefined) return;
    for (let entry = ratings.first[k]; entry < ratings.first[k + 1]; entry++) {
      const r = ratings.rater[entry];
      if (raterIndex[r] < 0) raterIndex[r] = raters.push(ratings.raters[r]) - 1;
      item[e] = point;
      rater[e] = raterIndex[r];
      value[e++] = ratings.value[entry];
    }
  });
  if (e === 0) return null;
  const mapped = quantileMap(points.map((p) => p.metric), value.subarray(0, e), human.scale, higherIsBetter);
  const METRIC = "\u0000metric";
  const metricIndex = raters.push(METRIC) - 1;
  points.forEach((_, k) => {
    item[e] = k;
    rater[e] = metricIndex;
    value[e++] = mapped[k];
  });
  const table = answerTableFromColumns({ items: points.map((p) => p.reviewId), raters, item, rater, value }, { scale: human.scale });
  const { weights } = human.question;
  const name = (rater: string) => (rater === METRIC ? "the metric" : (names.get(rater) ?? rater));
  // The metric is the table's last rater (its ratings come last), so each pair below is
  // (earlier, later) in table order, as pairKappa takes it.
  const kappa = (a: string, b: string) => pairKappa(table, table.raters.indexOf(a), table.raters.indexOf(b), weights, [name(a), name(b)]);
  const annotators = table.raters.filter((r) => r !== METRIC);
  const humanPairs = annotators.flatMap((a, i) => annotators.slice(i + 1).map((b) => ({ a, b, ...pick(kappa(a, b)) })));
  const metricPairs = annotators.map((annotator) => ({ annotator, ...pick(kappa(annotator, METRIC)) }));
  const defined = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
  const hh = defined(humanPairs.map((p) => p.value));
  const hm = defined(metricPairs.map((p) => p.value));
  return {
    method: `Cohen's kappa, ${weights === "unweighted" ? "unweighted" : `${weights} weights`}, on the reviews both rated (SWE-Judge RQ2: min / max / mean human-human vs mean human-metric)`,
    mapping: "metric mapped onto the human scale by quantiles: levels follow the pooled human ratings' distribution, ties share a level",
    names: Object.fromEntries(annotators.map((a) => [a, name(a)])),
    humanHuman: { pairs: humanPairs, min: hh.length ? Math.min(...hh) : null, max: hh.length ? Math.max(...hh) : null, mean: hh.length ? mean(hh) : null },
    humanMetric: { pairs: metricPairs, mean: hm.length ? mean(hm) : null },
  };
}

const pick = (r: { value: number | null; n: number; reason?: string }) => ({ value: r.value, n: r.n, ...(r.reason === undefined ? {} : { reason: r.reason }) });

/** The sections that depend on neither the level nor the bootstrap (pure). */
export type LevelFreeSections = Pick<ValidityReport, "systems" | "byHumanLevel" | "ksMatrix" | "thresholdSweep" | "humanMetricAgreement">;

/** `matches`: a CRScore column's stored details (sweepMatches), for its threshold sweep. */
export async function levelFreeSections(
  points: readonly ReviewPoint[],
  human: HumanScores,
  metric: MetricInfo,
  matches: ReadonlyMap<string, SweepMatches>,
  names: ReadonlyMap<string, string> = new Map(),
  tauGt: number | null = null,
): Promise<LevelFreeSections> {
  const groups = groupByLevel(points, human.scale);
  // Started first: its exact p-values are computed on a worker thread while the rest is computed here.
  const ks = ksMatrix(groups);
  const sections = {
    systems: systemRanking(points),
    byHumanLevel: [...groups].map(([lvl, values]) => summarizeLevel(lvl, values)),
    thresholdSweep: isCrscoreColumn(metric.name) ? thresholdSweep(metric.name, points, matches, tauGt) : null,
    humanMetricAgreement: humanMetricAgreement(points, human, metric.higherIsBetter, names),
  };
  return { ...sections, ksMatrix: await ks };
}

/** The correlations overall and per language at the level (pure). */
export function levelCorrelations(points: readonly ReviewPoint[], level: CorrelationLevel, bootstrap: BootstrapSettings): ValidityReport["correlations"] {
  const languages = [...new Set(points.map((p) => p.language))].sort();
  return {
    units: level === "system" ? "systems (mean metric and mean human score per system)" : "reviews",
    overall: unitCorrelations(points, level, bootstrap),
    byLanguage: languages.map((language) => ({ language, ...unitCorrelations(points.filter((p) => p.language === language), level, bootstrap) })),
  };
}

/**
 * How a report gets its level-free sections: computed here by default; a caller that keeps them
 * per state of the data (lib/data/report-cache.ts) shares them between levels and between
 * the reports with and without CIs.
 */
export type LevelFreeSource = (compute: () => Promise<LevelFreeSections>) => Promise<LevelFreeSections>;

/** The annotators who rated any review (the report names them). */
export function annotatorsOf(human: HumanScores): Set<string> {
  const { raters, rater } = human.ratings;
  const annotators = new Set<string>();
  for (let e = 0; e < rater.length; e++) annotators.add(raters[rater[e]]);
  return annotators;
}

/** An even sample of at most `max` points, in order. */
function samplePoints(points: readonly ReviewPoint[], max: number): ReviewPoint[] {
  if (points.length <= max) return [...points];
  return Array.from({ length: max }, (_, i) => points[Math.floor((i * points.length) / max)]);
}

/** What the validity report reads of a study (lib/data/reports.ts). */
export interface ValidityInput {
  human: HumanScores;
  /** The names of the annotators who rated a review. */
  names: ReadonlyMap<string, string>;
  values: MetricValues;
  /** CRScore's best matches (sweepMatches of the values' details). */
  matches: Map<string, SweepMatches>;
  referenceReviews: readonly { id: string; codeChangeId: string }[];
  /** Reviews imported without their text: left out, and counted. */
  missingText: ReadonlySet<string>;
  /** The code changes with a rated review (CRScore's τ_GT, Table 18); empty for other metrics. */
  annotated: ReadonlySet<string>;
}

export async function validityReportOf(study: StudyForAnalysis, options: ValidityOptions, input: ValidityInput, shared: LevelFreeSource = (compute) => compute()): Promise<ValidityReport> {
  const { human, names, values, matches, referenceReviews, missingText, annotated } = input;
  const level = options.level ?? "review";
  const includeReferences = options.includeReferences ?? false;
  const bootstrap = bootstrapSettings(options.bootstrap);
  const drafts = options.includeDrafts ? "include" : "exclude";
  const crscore = isCrscoreColumn(options.metric);
  const references = includeReferences ? new Set<string>() : new Set(referenceReviews.map((r) => r.id));
  let humanWithMissingText = 0;

  const points: ReviewPoint[] = [];
  const wanted = options.items && new Set(options.items.ids);
  const matched = new Set<string>();
  for (const item of human.items) {
    if (wanted && !inItemSet(item, wanted, matched)) continue;
    const metric = values.values.get(item.id);
    const score = humanScore(human.ratings, item.id);
    if (score !== undefined && missingText.has(item.id) && !references.has(item.id)) humanWithMissingText++;
    if (metric === undefined || score === undefined || references.has(item.id) || missingText.has(item.id)) continue;
    points.push({ reviewId: item.id, system: item.system ?? "", language: item.language, metric, human: score });
  }
  const info = metricInfo(options.metric, values.signature);
  // The level-free sections first: their KS p-values run on a worker thread while the correlations are computed here.
  const levelFree = shared(async () =>
    levelFreeSections(
      points,
      human,
      info,
      matches,
      names,
      crscore ? referenceTau(referenceReviews.map((r) => ({ detail: values.details.get(r.id), annotated: annotated.has(r.codeChangeId) }))) : null,
    ),
  );
  const [correlations, sections] = await Promise.all([(async () => levelCorrelations(points, level, bootstrap))(), levelFree]);
  return {
    study: { id: study.id, slug: study.slug, name: study.name },
    metric: info,
    human: { question: human.question.key, task: human.question.task, label: human.question.label, scale: human.scale, aggregation: "mean over the review's annotators" },
    level,
    itemSet: itemSetStatement(options.items, matched),
    settings: {
      bootstrap: { ...bootstrap, method: `percentile; ${level === "system" ? "systems" : "reviews"} resampled with replacement, metric and human score together` },
      includeReferences,
      counted: countedWork(drafts),
      levelRule: "a review's human level is its mean human score rounded half up to the scale",
    },
    counts: { reviewsWithMetric: values.values.size, reviewsWithHuman: human.ratings.review.size, paired: points.length, leftOutMissingText: humanWithMissingText, draftsLeftOut: human.draftsLeftOut },
    correlations,
    ...sections,
    points: samplePoints(points, options.maxPoints ?? 2000),
    pointsSampled: points.length > (options.maxPoints ?? 2000),
  };
}
