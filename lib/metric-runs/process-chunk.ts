/** One job: the scores of one chunk of reviews, stored with the run's progress in one statement. */
import { type MetricScoreInput, scoreKey, storedScoreKeys } from "@/lib/data/metric-scores";
import { type ChunkRun, chunkRun, storeChunkScores } from "@/lib/data/metric-runs";
import { announceMetricRun } from "@/lib/webhooks/send";
import { loadReviewsToScore } from "@/lib/data/reviews-to-score";
import { runEmbedder, type MetricJobContext } from "./context";
import { judgeScores } from "./judges";
import type { ChunkJobData } from "./chunks";
import { runParams } from "./runs";
import { scoreReview, textsToEmbed } from "./score";
import { type MetricJobSpec, specApplies } from "./specs";
import type { EmbeddedTexts, EmbeddingPooling } from "@/lib/embeddings";

const specPooling = (spec: MetricJobSpec): EmbeddingPooling => (spec.kind === "crscore" ? (spec.pooling ?? "sentence") : "sentence");

/** A chunk's scores, computed and not yet stored. */
export interface ComputedChunk {
  runId: string;
  rows: MetricScoreInput[];
  /** Reviews the rows complete. */
  reviews: number;
}

/**
 * Computes the chunk's missing scores (a review × metric already stored under the run's
 * signature is skipped, so a chunk may run twice; a fresh chunk's scores are not read, see
 * ChunkJobData). A failed run's chunks compute nothing (null).
 * `run` is the chunk's run when the caller has just read it (drainMetricRun reads it with every fetch).
 */
export async function computeChunk(context: MetricJobContext, data: ChunkJobData, run?: ChunkRun): Promise<ComputedChunk | null> {
  run ??= await chunkRun(data.runId);
  if (!run || run.status === "FAILED") return null;
  const params = runParams(run);
  const columns = params.specs.flatMap((s) => s.columns.map((metric) => ({ metric, signature: s.signature })));
  const [reviews, stored] = await Promise.all([loadReviewsToScore({ ids: data.reviewIds }, { codeChanges: params.specs.some((s) => s.kind === "judge"), pseudoReferences: params.specs.some((s) => s.kind === "crscore") }), data.fresh ? new Set<string>() : storedScoreKeys(data.reviewIds, columns)]);

  const work = reviews
    .map((review) => ({ review, specs: params.specs.filter((s) => specApplies(s, review) && s.columns.some((c) => !stored.has(scoreKey(review.id, c, s.signature)))) }))
    .filter((w) => w.specs.length > 0);
  // Texts are embedded once per pooling: CRScore's may pool token embeddings, embeddingSim never does.
  const embedded = new Map<EmbeddingPooling, EmbeddedTexts>();
  for (const pooling of new Set(params.specs.map(specPooling))) {
    const texts = work.flatMap((w) => w.specs.filter((s) => specPooling(s) === pooling).flatMap((s) => textsToEmbed(s, w.review)));
    if (texts.length > 0 && params.embedding) embedded.set(pooling, await (await runEmbedder(context, run.studyId, params.embedding, pooling)).embed(texts));
  }
  const rows = work.flatMap((w) => w.specs.flatMap((s) => (s.kind === "judge" ? [] : scoreReview(s, w.review, embedded.get(specPooling(s)) ?? null))));
  rows.push(...(await judgeScores(context, work.flatMap((w) => w.specs.flatMap((spec) => (spec.kind === "judge" ? [{ spec, review: w.review }] : []))))));

  return { runId: run.id, rows, reviews: work.length };
}

/** Stores a computed chunk (storeChunkScores) and returns how many reviews it completed; the chunk that finishes its run announces it. */
export async function storeChunk(computed: ComputedChunk | null): Promise<number> {
  if (!computed) return 0;
  const { completed, finished } = await storeChunkScores(computed.runId, computed.rows, computed.reviews);
  if (finished) await announceMetricRun(finished, "DONE");
  return completed;
}

/** Computes and stores one chunk (computeChunk, storeChunk); returns how many reviews it completed. */
export async function processChunk(context: MetricJobContext, data: ChunkJobData): Promise<number> {
  return storeChunk(await computeChunk(context, data));
}
