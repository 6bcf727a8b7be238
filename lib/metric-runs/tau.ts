/**
 * CRScore's threshold τ for a run (§3.3):
 * - the paper's τ = 0.7314 when the embedder is the paper's model (mxbai-embed-large-v1);
 * - otherwise calibrated by the paper's procedure: "the distribution of pseudo-reference and
 *   review similarity scores for the best model", on the data "used for collecting human
 *   annotations" excluded: each review sentence of the best system's reviews with its most
 *   similar pseudo-reference of the change, averaged over all those sentences. The best system is
 *   the one the lead names, else the one the study's annotators rated most relevant;
 * - or on the human reference reviews instead (τ_GT, footnote 6: 0.6576 in the paper);
 * - or given by the lead.
 * When the study has no unannotated change with such reviews, the annotated ones are used and the
 * signature says so (`tau-items:all`). Without human relevance ratings and a named system, the
 * default calibration falls back to τ_GT. The choice goes into the metric signature.
 */
import { humanScore, type HumanRatings, mean } from "@/lib/analysis/human-scores";
import { humanScores } from "@/lib/data/task-answers";
import { requireStudy } from "@/lib/data/studies";
import type { Embedder, EmbeddingConfig } from "@/lib/embeddings";
import { AppError } from "@/lib/errors";
import { calibrateThreshold, CRSCORE_DEFAULT_TAU, isCrscorePaperModel, pairwiseSimilarities, splitReviewSentences } from "@/lib/metrics";
import type { MetricJobContext } from "./context";
import { loadCalibrationReviews, loadReviewsToScore, type CalibrationReview } from "@/lib/data/reviews-to-score";
import type { TauChoice, TauSource } from "./specs";

export type TauCalibration = "best-system" | "gt";

export interface TauRequest {
  /** A τ given by the lead. */
  tau?: number;
  /** Calibrate even for the paper's model, by this procedure. Default: the paper's τ for its model, else "best-system". */
  tauCalibration?: TauCalibration;
  /** The best system for "best-system"; default the system with the highest mean human relevance. */
  tauSystem?: string;
}

/** The system with the highest mean human score (a review's score: the mean of its ratings); ties by name. Null without scores. */
export function bestRatedSystem(scores: readonly { system: string; score: number }[]): string | null {
  const bySystem = new Map<string, number[]>();
  for (const { system, score } of scores) {
    const list = bySystem.get(system);
    if (list) list.push(score);
    else bySystem.set(system, [score]);
  }
  let best: { system: string; mean: number } | null = null;
  for (const [system, values] of [...bySystem].sort((a, b) => a[0].localeCompare(b[0]))) {
    const m = mean(values);
    if (best === null || m > best.mean) best = { system, mean: m };
  }
  return best?.system ?? null;
}

/** The study's human relevance ratings (submitted ratings of candidate reviews), null when the study asks no relevance. */
async function relevanceRatings(studyId: string): Promise<HumanRatings | null> {
  const study = await requireStudy({ id: studyId });
  if (!study.tasks.includes("REVIEW_RATING") || !study.likertDimensions.includes("relevance")) return null;
  return (await humanScores(study, "relevance")).ratings;
}

/** The system the study's annotators rated most relevant, null when the study has no relevance ratings. */
function mostRelevantSystem(ratings: HumanRatings | null, reviews: readonly CalibrationReview[]): string | null {
  if (ratings === null) return null;
  const scores = reviews.flatMap((r) => {
    const score = humanScore(ratings, r.id);
    return !r.isReference && score !== undefined ? [{ system: r.system, score }] : [];
  });
  return bestRatedSystem(scores);
}

/** τ from the sentences of the reviews of `set`, whose texts are read here (the unannotated ones when there are any); null when no sentence has a pseudo-reference. */
async function calibrateOn(set: readonly CalibrationReview[], embedder: Embedder | Promise<Embedder>): Promise<Omit<NonNullable<TauChoice["calibration"]>, "system"> & { tau: number | null }> {
  const texts = new Map((await loadReviewsToScore(set.map((r) => r.id), { codeChanges: false, reference: false })).map((r) => [r.id, r]));
  const reviews = set.flatMap((r) => {
    const review = texts.get(r.id);
    return review ? [{ ...review, annotated: r.annotated }] : [];
  });
  const usable = reviews.filter((r) => r.pseudoReferences.length > 0 && splitReviewSentences(r.text).length > 0);
  const unannotated = usable.filter((r) => !r.annotated);
  const items = unannotated.length > 0 ? "unannotated" : "all";
  const chosen = items === "unannotated" ? unannotated : usable;
  const sentences = chosen.map((r) => splitReviewSentences(r.text));
  const embedded = await (await embedder).embed([...sentences.flat(), ...chosen.flatMap((r) => r.pseudoReferences)], { keep: true });
  const result = calibrateThreshold(chosen.map((r, i) => pairwiseSimilarities(sentences[i], r.pseudoReferences, embedded.similarity)));
  return { tau: result.tau, items, reviews: chosen.length, sentences: result.sentenceCount };
}

/**
 * τ by `method` on this study with this embedder, rounded to 4 decimals (the precision the
 * signature records); the paper's τ ("paper-default") when there is nothing to calibrate on.
 * The embedder may still be fitting: the study's reviews and ratings are read meanwhile.
 */
export async function calibrateStudyTau(context: MetricJobContext, studyId: string, embedder: Embedder | Promise<Embedder>, method: TauCalibration, options: { system?: string; fallbackToGt?: boolean } = {}): Promise<TauChoice> {
  const { system } = options;
  const [reviews, ratings] = await Promise.all([loadCalibrationReviews(studyId), method === "best-system" && system === undefined ? relevanceRatings(studyId) : null]);
  let source: TauSource = method;
  let chosenSystem: string | null = null;
  if (method === "best-system") {
    chosenSystem = system ?? mostRelevantSystem(ratings, reviews);
    const systems = [...new Set(reviews.filter((r) => !r.isReference).map((r) => r.system))].sort();
    if (system !== undefined && !systems.includes(system)) throw new AppError("INVALID_INPUT", { message: `no system "${system}" in this study; its systems: ${systems.join(", ") || "none"}` });
    if (chosenSystem === null && !options.fallbackToGt) throw new AppError("INVALID_INPUT", { message: "no human relevance rating names the best system: name it (--tau-system) or calibrate on the human reference reviews (--tau-calibration gt)" });
    if (chosenSystem === null) source = "gt";
  }
  const set = source === "gt" ? reviews.filter((r) => r.isReference) : reviews.filter((r) => !r.isReference && r.system === chosenSystem);
  const { tau, ...calibration } = await calibrateOn(set, embedder);
  if (tau === null) return { value: CRSCORE_DEFAULT_TAU, source: "paper-default" };
  return { value: Number(tau.toFixed(4)), source, calibration: { system: source === "gt" ? null : chosenSystem, ...calibration } };
}

/**
 * The τ of a CRScore run: given, the paper's for the paper's model, else calibrated (see above).
 * `config` says which embedder `embedder` is (it may still be fitting, see calibrateStudyTau).
 */
export async function planTau(context: MetricJobContext, studyId: string, config: Pick<EmbeddingConfig, "kind" | "model">, embedder: Embedder | Promise<Embedder>, request: TauRequest): Promise<TauChoice> {
  if (request.tau !== undefined) return { value: request.tau, source: "given" };
  if (request.tauCalibration === undefined && config.kind === "http" && isCrscorePaperModel(config.model)) return { value: CRSCORE_DEFAULT_TAU, source: "paper" };
  return calibrateStudyTau(context, studyId, embedder, request.tauCalibration ?? "best-system", { system: request.tauSystem, fallbackToGt: request.tauCalibration === undefined });
}
