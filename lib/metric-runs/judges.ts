/**
 * The LLM judges of lib/judges as metric jobs. Planning resolves the endpoint (request, else
 * LLM_URL / LLM_MODEL; without one the run fails at once with LlmNotConfiguredError) and, for
 * SWE-Judge, the team (§3.2 team trials on up to 10 reviews with human scores). A spec stores
 * the endpoint URL and model, never the API key; its signature is the judge's signature (model,
 * prompt version, settings, team, scale). SWE-Judge maps its 0-100 ensemble onto the scale of the
 * question its team trials correlate with (§3.3: the grade, or the study's Likert relevance). Chunks rebuild the judge from the spec and score their
 * reviews concurrently (the chat client bounds requests in flight), with the change's reference
 * review and code change as context; a judge's null is stored with its reason in `detail`.
 */
import type { MetricScoreInput } from "@/lib/data/metric-scores";
import {
  calibrateSweJudge,
  calibrationSample,
  createChatClient,
  createJudgeMetric,
  LlmNotConfiguredError,
  LlmRequestError,
  resolveLlmConfig,
  scaleOfQuestion,
  SWE_STRATEGIES,
  type ChatClient,
  type JudgeMetric,
  type JudgeMetricName,
  type SweStrategy,
} from "@/lib/judges";
import type { MetricJobContext } from "./context";
import { metricRunParams } from "@/lib/data/metric-runs";
import { llmResponseCache } from "@/lib/data/llm-responses";
import { loadReviewsToScore, studyReviewOrder, sweCalibrationScores, type OrderedReview, type ReviewToScore } from "@/lib/data/reviews-to-score";
import { requireStudy } from "@/lib/data/studies";
import { reviewQuestionTask, taskQuestions } from "@/lib/tasks";
import { runParamsSchema, type MetricJobSpec, type SweTeam } from "./specs";
import { AppError } from "@/lib/errors";

/** Reviews per job of runs with a judge: a few model calls each, so small chunks resume finely and finish well within a job's expiry. */
export const JUDGE_CHUNK_SIZE = 10;
/** SWE-Judge §3.2 samples 10 annotated items for the team trials. */
export const SWE_CALIBRATION_SIZE = 10;
/** Fewer human-scored reviews make every correlation ±1 or undefined. */
const MIN_CALIBRATION = 3;

export interface JudgeRunRequest {
  /** Chat-completions endpoint and model; default LLM_URL / LLM_MODEL. */
  url?: string;
  model?: string;
  /** Key for this endpoint; default LLM_API_KEY when it is LLM_URL. Kept in the context for the run's chunks, never stored. */
  apiKey?: string;
  /** SWE-Judge's team (e.g. ["P1b", "P3"]); default selected by team trials on the study's human scores. */
  sweTeam?: readonly string[];
  /** Seed of the team trials' sample of reviews. Default 1. */
  sweSeed?: number;
}

export interface RunLlm {
  url: string;
  model: string;
}

type JudgeSpec = Extract<MetricJobSpec, { kind: "judge" }>;
/** The human question SWE-Judge's scores are put on (its key and scale). */
type RunQuestion = NonNullable<JudgeSpec["question"]>;

/** SWE-Judge cannot select a team: no or too few human scores, or no team correlates with them. */
export class SweCalibrationError extends AppError {
  constructor(message: string) {
    super("INVALID_INPUT", { message });
    this.name = "SweCalibrationError";
  }
}

/** Failures of planning a judge that leave a FAILED run behind with their message (see startMetricRun). */
export const isJudgePlanningError = (error: unknown) => error instanceof LlmNotConfiguredError || error instanceof LlmRequestError || error instanceof SweCalibrationError;

/** The endpoint of a run: the request's, else LLM_URL / LLM_MODEL; throws LlmNotConfiguredError. */
export function planLlm(context: MetricJobContext, request: JudgeRunRequest = {}): RunLlm {
  const { url, model } = resolveLlmConfig({ url: request.url, model: request.model }, context.env);
  const llm = { url, model };
  if (request.apiKey) context.llmApiKeys.set(url, request.apiKey);
  runChatClient(context, llm); // rejects a malformed URL now rather than in every chunk
  return llm;
}

/** The key requested with this URL, else LLM_API_KEY for LLM_URL only: a run's URL comes from the database and must not receive another endpoint's key. */
export const apiKeyFor = (context: MetricJobContext, url: string) => context.llmApiKeys.get(url) ?? (url === context.env.LLM_URL ? context.env.LLM_API_KEY : undefined);

/** One chat client per endpoint and model in this process, so its concurrency limit covers all chunks; answers cached in PostgreSQL, so a re-run asks nothing. */
export function runChatClient(context: MetricJobContext, llm: RunLlm): ChatClient {
  const key = `${llm.url}\u0000${llm.model}\u0000${apiKeyFor(context, llm.url) ?? ""}`;
  let client = context.chatClients.get(key);
  if (!client) {
    client = createChatClient({ ...context.llmHttp, url: llm.url, model: llm.model, apiKey: apiKeyFor(context, llm.url), cache: llmResponseCache }, {});
    context.chatClients.set(key, client);
  }
  return client;
}

const judgeOf = (client: ChatClient, name: JudgeMetricName, team: SweTeam | null, question: RunQuestion | null = null) =>
  createJudgeMetric(name, { client, ...(team ? { sweJudge: { team: team.members, ...(question ? { scale: { min: question.min, max: question.max } } : {}) } } : {}) });

/** The spec of one judge; for SWE-Judge the question its scores are put on, and its team, calibrated unless given. */
export async function judgeJobSpec(context: MetricJobContext, studyId: string, name: JudgeMetricName, llm: RunLlm, request: JudgeRunRequest = {}): Promise<MetricJobSpec> {
  const client = runChatClient(context, llm);
  if (name !== "swe-judge") {
    const judge = judgeOf(client, name, null);
    return { kind: "judge", name, columns: [name], signature: judge.signature, llm, needsReference: judge.needs.reference, team: null };
  }
  const scored = await humanScoredReviews(studyId);
  const question = scored ? await humanQuestion(studyId, scored.human) : null;
  const team = await planSweTeam(studyId, client, llm, request, scored, question);
  const judge = judgeOf(client, name, team, question);
  return { kind: "judge", name, columns: [name], signature: judge.signature, llm, needsReference: judge.needs.reference, team, question };
}

/** The judge a spec was planned with, kept for the process (SWE-Judge shares first steps across a change's reviews). */
export function specJudge(context: MetricJobContext, spec: JudgeSpec): JudgeMetric {
  const key = `${spec.llm.url}\u0000${spec.signature}\u0000${apiKeyFor(context, spec.llm.url) ?? ""}`;
  let judge = context.judges.get(key);
  if (!judge) {
    judge = judgeOf(runChatClient(context, spec.llm), spec.name, spec.team, spec.question ?? null);
    if (judge.signature !== spec.signature) throw new AppError("CONFLICT", { message: `the ${spec.name} judge changed since this metric run was planned (signature ${judge.signature}, planned ${spec.signature}); start the run again` });
    context.judges.set(key, judge);
  }
  return judge;
}

/** The MetricScore row of one review; a null value keeps the judge's reason and detail. */
async function judgeScore(judge: JudgeMetric, spec: JudgeSpec, review: ReviewToScore, signal: AbortSignal): Promise<MetricScoreInput> {
  const result = await judge.score(review.text, review.reference, { codeChange: review.codeChange, language: review.language || null, signal });
  const detail = result.value === null ? { reason: result.reason ?? "no-score", ...result.detail } : result.detail;
  return { reviewId: review.id, metric: spec.name, signature: spec.signature, value: result.value, detail };
}

/**
 * Scores the pairs concurrently. The first failure (an endpoint that keeps failing, after the
 * client's retries) cancels the others and is thrown, so the chunk stores nothing and is retried.
 */
export async function judgeScores(context: MetricJobContext, pairs: readonly { spec: JudgeSpec; review: ReviewToScore }[]): Promise<MetricScoreInput[]> {
  if (pairs.length === 0) return [];
  const controller = new AbortController();
  return Promise.all(
    pairs.map(async ({ spec, review }) => {
      try {
        return await judgeScore(specJudge(context, spec), spec, review, controller.signal);
      } catch (error) {
        controller.abort(error);
        throw error;
      }
    }),
  );
}

/** Validates a team given by the lead: distinct strategy names. */
export function parseSweTeam(names: readonly string[]): SweStrategy[] {
  const team = names.map((n) => n.trim()).filter((n) => n !== "");
  const unknown = team.filter((n) => !(SWE_STRATEGIES as readonly string[]).includes(n));
  if (unknown.length > 0 || team.length === 0) throw new SweCalibrationError(`invalid SWE-Judge team "${names.join("+")}": choose strategies among ${SWE_STRATEGIES.join(", ")} (e.g. P1b+P3+P5)`);
  if (new Set(team).size !== team.length) throw new SweCalibrationError(`invalid SWE-Judge team "${names.join("+")}": a strategy is named twice`);
  return team as SweStrategy[];
}

type HumanSource = NonNullable<SweTeam["calibration"]>["human"];
interface HumanScored {
  review: ReviewToScore;
  /** The review as the lead knows it (external ids, system). */
  named: Pick<OrderedReview, "codeChange" | "review" | "system">;
  human: number;
}

/** The question each source of human scores answers. */
const HUMAN_QUESTION: Readonly<Record<HumanSource, string>> = { "reference-grade": "grade", "review-rating-relevance": "relevance" };

/** The question the human scores answer, with its scale in the study (a grade 1-5, the study's Likert scale); null when the study does not ask it. */
async function humanQuestion(studyId: string, human: HumanSource): Promise<RunQuestion | null> {
  const study = await requireStudy({ id: studyId });
  const key = HUMAN_QUESTION[human];
  const task = reviewQuestionTask(key, study);
  const question = task ? taskQuestions(task, study).find((q) => q.key === key) : undefined;
  return question ? { key, ...scaleOfQuestion(question) } : null;
}

const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / values.length;

/**
 * The study's candidate reviews SWE-Judge can score (a reference review and a code change) with
 * a human score, in study order: the mean GradedReviews grade against the reference, or, when
 * no such review has one, the mean Likert relevance of the review ratings.
 */
async function humanScoredReviews(studyId: string): Promise<{ human: HumanSource; items: HumanScored[] } | null> {
  const [order, { grades, ratings }] = await Promise.all([studyReviewOrder(studyId), sweCalibrationScores(studyId)]);
  const relevance = ratings.flatMap((r) => {
    const value = (r.scores as Record<string, unknown> | null)?.relevance;
    return typeof value === "number" && Number.isFinite(value) ? [{ reviewId: r.reviewId, value }] : [];
  });
  const sources: [HumanSource, { reviewId: string; value: number }[]][] = [
    ["reference-grade", grades.map((g) => ({ reviewId: g.reviewId, value: g.grade }))],
    ["review-rating-relevance", relevance],
  ];
  for (const [human, scores] of sources) {
    const byReview = new Map<string, number[]>();
    for (const s of scores) byReview.set(s.reviewId, [...(byReview.get(s.reviewId) ?? []), s.value]);
    if (byReview.size === 0) continue;
    const reviews = new Map((await loadReviewsToScore([...byReview.keys()])).map((r) => [r.id, r]));
    const items = order.flatMap(({ id, codeChange, review: externalId, system }) => {
      const review = reviews.get(id);
      return review && review.reference !== null && review.codeChange !== null ? [{ review, named: { codeChange, review: externalId, system }, human: mean(byReview.get(id) as number[]) }] : [];
    });
    if (items.length > 0) return { human, items };
  }
  return null;
}

const signatureWithoutTeam = (signature: string) => signature.replace(/\|team:[^|]*/, "");

/** An earlier run's team trials on the same sample, human scores, endpoint and judge version. */
async function earlierCalibration(studyId: string, llm: RunLlm, signature: string, calibration: Pick<NonNullable<SweTeam["calibration"]>, "human" | "seed" | "reviewIds" | "items" | "humanScores">): Promise<SweTeam | null> {
  const runs = await metricRunParams(studyId, "swe-judge");
  const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  for (const run of runs) {
    const params = runParamsSchema.safeParse(run.params);
    if (!params.success) continue;
    for (const spec of params.data.specs) {
      const earlier = spec.kind === "judge" ? spec.team?.calibration : null;
      if (spec.kind !== "judge" || !spec.team || !earlier || spec.llm.url !== llm.url || spec.llm.model !== llm.model) continue;
      if (signatureWithoutTeam(spec.signature) !== signatureWithoutTeam(signature)) continue;
      if (earlier.human !== calibration.human || earlier.seed !== calibration.seed || !same(earlier.reviewIds, calibration.reviewIds) || !same(earlier.humanScores, calibration.humanScores)) continue;
      return { ...spec.team, calibration: { ...earlier, items: calibration.items, reusedFrom: earlier.reusedFrom ?? run.id } };
    }
  }
  return null;
}

/**
 * SWE-Judge's team: given, or selected by the team trials of §3.2 on a seeded sample of up to
 * 10 human-scored reviews. The paper selects a team on each dataset and names no default one,
 * so a study without human scores must be given a team. Trials an earlier run made on the same
 * sample (same scores, endpoint and judge) are reused, so asking for a run again resumes it.
 * The team records the reviews it was selected on (`calibration.items`).
 */
async function planSweTeam(studyId: string, client: ChatClient, llm: RunLlm, request: JudgeRunRequest, scored: { human: HumanSource; items: HumanScored[] } | null, question: RunQuestion | null): Promise<SweTeam> {
  if (request.sweTeam !== undefined) return { members: parseSweTeam(request.sweTeam), source: "given", calibration: null };
  const seed = request.sweSeed ?? 1;
  if (!Number.isInteger(seed)) throw new SweCalibrationError(`the SWE-Judge sample seed must be an integer, got ${seed}`);
  const choose = `choose a team instead (CLI --swe-team, e.g. P1b+P3+P5; strategies ${SWE_STRATEGIES.join(", ")})`;
  if (!scored) {
    throw new SweCalibrationError(
      `SWE-Judge selects its team by correlation with human scores (§3.2) and the paper names no default team, but no candidate review of this study with a reference review and a code change has a grade against its reference or a relevance rating: annotate some, or ${choose}`,
    );
  }
  if (scored.items.length < MIN_CALIBRATION) throw new SweCalibrationError(`SWE-Judge team trials need at least ${MIN_CALIBRATION} human-scored reviews (${scored.human}), this study has ${scored.items.length}: annotate more, or ${choose}`);

  const sample = calibrationSample(scored.items, SWE_CALIBRATION_SIZE, seed);
  const key = { human: scored.human, seed, reviewIds: sample.map((s) => s.review.id), items: sample.map((s) => s.named), humanScores: sample.map((s) => s.human) };
  const signature = createJudgeMetric("swe-judge", { client, sweJudge: question ? { scale: { min: question.min, max: question.max } } : {} }).signature;
  const earlier = await earlierCalibration(studyId, llm, signature, key);
  if (earlier) return earlier;

  const items = sample.map((s) => ({ input: { generated: s.review.text, reference: s.review.reference as string, codeChange: s.review.codeChange as string }, human: s.human }));
  let calibration: Awaited<ReturnType<typeof calibrateSweJudge>>;
  try {
    calibration = await calibrateSweJudge(client, items);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new SweCalibrationError(`SWE-Judge team trials on ${sample.length} reviews (${scored.human}) selected no team: ${error.message}; ${choose}`);
  }
  const { selection } = calibration;
  if (selection.n < MIN_CALIBRATION) throw new SweCalibrationError(`SWE-Judge team trials kept ${selection.n} of ${sample.length} reviews (a strategy gave no score on the others), fewer than ${MIN_CALIBRATION}; ${choose}`);
  return {
    members: selection.team,
    source: "calibrated",
    calibration: { ...key, excluded: calibration.excluded.map((i) => sample[i].review.id), correlation: selection.correlation },
  };
}
