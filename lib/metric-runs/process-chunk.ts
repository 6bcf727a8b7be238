/** One job: the scores of one chunk of reviews, stored with the run's progress in one statement. */
import { type MetricScoreInput, scoreKey, storedScoreKeys } from "@/lib/data/metric-scores";
import { type ChunkRun, chunkRun, storeChunkScores } from "@/lib/data/metric-runs";
import { announceMetricRun } from "@/lib/webhooks/send";
import { loadReviewsToScore, type ReviewToScore } from "@/lib/data/reviews-to-score";
import { runEmbedder, type MetricJobContext } from "./context";
import { judgeScores } from "./judges";
import type { ChunkJobData } from "./chunks";
import { runParams } from "./runs";
import { scoreReview, textsToEmbed } from "./score";
import { type MetricJobSpec, type RunParams, specApplies } from "./specs";
import type { EmbeddedTexts, EmbeddingPooling } from "@/lib/embeddings";

const specPooling = (spec: MetricJobSpec): EmbeddingPooling => (spec.kind === "crscore" ? (spec.pooling ?? "sentence") : "sentence");

/** A chunk's scores, computed and not yet stored. */
export interface ComputedChunk {
  runId: string;
  rows: MetricScoreInput[];
  /** Reviews the rows complete. */
  reviews: number;
}

/** What a chunk computes from: its run, the reviews to score and the scores already stored. */
export interface ChunkInput {
  run: ChunkRun;
  params: RunParams;
  reviews: ReviewToScore[];
  stored: Set<string>;
}

/**
 * Reads what the chunk computes from: its run and parameters, its reviews and which of their
 * scores are stored (a fresh chunk's are not read, see ChunkJobData). A failed run's chunks
 * read nothing (null). `run` is the chunk's run when the caller has just read it
 * (drainMetricRun reads it with every fetch).
 */
export async function readChunk(data: ChunkJobData, run?: ChunkRun): Promise<ChunkInput | null> {
  run ??= await chunkRun(data.runId);
  if (!run || run.status === "FAILED") return null;
  const params = runParams(run);
  const columns = params.specs.flatMap((s) => s.columns.map((metric) => ({ metric, signature: s.signature })));
  const [reviews, stored] = await Promise.all([loadReviewsToScore(data.reviewIds, { codeChanges: params.specs.some((s) => s.kind === "judge"), pseudoReferences: params.specs.some((s) => s.kind === "crscore"), reference: params.specs.some((s) => s.kind !== "crscore") }), data.fresh ? new Set<string>() : storedScoreKeys(data.reviewIds, columns)]);
  return { run, params, reviews, stored };
}

/**
 * The chunk's missing scores (a review × metric already stored under the run's signature is
 * skipped, so a chunk may run twice); null when its run failed.
 */
export async function scoreChunk(context: MetricJobContext, input: ChunkInput | null): Promise<ComputedChunk | null> {
  if (!input) return null;
  const { run, params, reviews, stored } = input;
  // A fresh chunk has nothing stored: no key of a few hundred characters per review and column to make.
  const missing = (review: ReviewToScore, s: MetricJobSpec) => stored.size === 0 || s.columns.some((c) => !stored.has(scoreKey(review.id, c, s.signature)));
  const work = reviews
    .map((review) => ({ review, specs: params.specs.filter((s) => specApplies(s, review) && missing(review, s)) }))
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

/** Reads and scores one chunk (readChunk, scoreChunk). */
export async function computeChunk(context: MetricJobContext, data: ChunkJobData, run?: ChunkRun): Promise<ComputedChunk | null> {
  return scoreChunk(context, await readChunk(data, run));
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
