/**
 * The metrics a job can compute and the parameter signature each stores its scores under
 * (MetricScore.signature), sacreBLEU style: a signature changes whenever a value would.
 * - every REFERENCE_METRICS entry, scoring a candidate review against the change's human
 *   reference review (Review.isReference);
 * - "embedding-sim": GradedReviews §5.1 embeddingSim, cosine of the review's and the
 *   reference's embeddings;
 * - "crscore": CRScore §3.3 Con / Comp / Rel (columns crscore-con, crscore-comp, crscore-rel)
 *   of every review, the human reference included (it is reference-free), against the change's
 *   automatic pseudo-references: the LLM's claims and implications and the static-analysis
 *   smells (§3.1), "refs:automatic" in the signature. Annotators' added or corrected claims
 *   (the stage-2 set of the human study, §4.2) are left out: the metric is meant to run without
 *   humans, and scoring against human-curated references would flatter it in the validity
 *   tables.
 * - the LLM judges of lib/judges (JUDGE_METRIC_NAMES), under the judge's own signature (model,
 *   prompt version, procedure settings; SWE-Judge's team), with the endpoint URL and model in
 *   the spec and the API key nowhere in the database (see ./judges.ts).
 */
import { z } from "zod";
import { type EmbeddingPooling, TFIDF_SETTINGS } from "@/lib/embeddings";
import { JUDGE_METRIC_NAMES, SWE_STRATEGIES } from "@/lib/judges";
import { getReferenceMetric, REFERENCE_METRICS } from "@/lib/metrics";
import { AppError, InvariantError } from "@/lib/errors";

export const EMBEDDING_SIM = "embedding-sim";
export const CRSCORE = "crscore";
export const CRSCORE_COLUMNS = ["crscore-con", "crscore-comp", "crscore-rel"] as const;

/** Names accepted by `metrics --metric`, in display order. */
export const METRIC_JOB_NAMES: readonly string[] = [...REFERENCE_METRICS.map((m) => m.name), EMBEDDING_SIM, CRSCORE, ...JUDGE_METRIC_NAMES];

/** Whether `name` is an LLM judge (scored over the chat-completions endpoint of the run). */
export const isJudgeMetric = (name: string) => (JUDGE_METRIC_NAMES as readonly string[]).includes(name);

/**
 * Where the threshold of a CRScore run came from (lib/metric-runs/tau.ts): the paper's 0.7314 for its
 * model ("paper"), calibrated on the best system's reviews ("best-system") or on the human
 * references ("gt", τ_GT), given by the lead, or the paper's value with nothing to calibrate on
 * ("paper-default"). Runs planned by earlier versions say "calibrated" (all reviews of the study).
 */
export const TAU_SOURCES = ["paper", "best-system", "gt", "given", "paper-default", "calibrated"] as const;
export type TauSource = (typeof TAU_SOURCES)[number];

const embeddingSchema = z.object({
  model: z.string(),
  offline: z.boolean(),
  /** Endpoint URL (never the API key), null for the offline default. */
  url: z.string().nullable(),
  /** TF-IDF fit of the offline default: SHA-256 of the study's texts; null for endpoints. */
  corpusFingerprint: z.string().nullable(),
});
export type RunEmbedding = z.infer<typeof embeddingSchema>;

/** Where SWE-Judge's team came from: team trials on the study's human scores (§3.2), or given by the lead. */
const sweTeamSchema = z.object({
  members: z.array(z.enum(SWE_STRATEGIES)).min(1),
  source: z.enum(["calibrated", "given"]),
  /** The team trials: which human scores, the seeded sample, the selected team's correlation. */
  calibration: z
    .object({
      human: z.enum(["reference-grade", "review-rating-relevance"]),
      seed: z.number().int(),
      reviewIds: z.array(z.string()),
      /** The sampled reviews as the lead knows them (code change and review external ids, system), in the order of reviewIds; absent in runs planned before. */
      items: z.array(z.object({ codeChange: z.string(), review: z.string(), system: z.string() })).optional(),
      humanScores: z.array(z.number()),
      /** Sampled reviews left out because a strategy gave no score. */
      excluded: z.array(z.string()),
      correlation: z.object({ kendall: z.number().nullable(), spearman: z.number().nullable(), pearson: z.number().nullable(), mean: z.number().nullable() }),
      /** The earlier run whose identical trials were reused instead of asking the model again. */
      reusedFrom: z.string().optional(),
    })
    .nullable(),
});
export type SweTeam = z.infer<typeof sweTeamSchema>;

const specSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("reference"), name: z.string(), columns: z.array(z.string()), signature: z.string() }),
  z.object({ kind: z.literal("embedding-sim"), name: z.literal(EMBEDDING_SIM), columns: z.array(z.string()), signature: z.string() }),
  z.object({
    kind: z.literal("crscore"),
    name: z.literal(CRSCORE),
    columns: z.array(z.string()),
    signature: z.string(),
    tau: z.number(),
    tauSource: z.enum(TAU_SOURCES),
    /** How a calibrated τ was computed: the best system (null for τ_GT), which items, how many reviews and sentences. */
    tauCalibration: z.object({ system: z.string().nullable(), items: z.enum(["unannotated", "all"]), reviews: z.number().int(), sentences: z.number().int() }).optional(),
    /** How an endpoint's texts become vectors (absent: "sentence"; the offline default has no pooling). */
    pooling: z.enum(["sentence", "tokens-without-stopwords"]).optional(),
  }),
  z.object({
    kind: z.literal("judge"),
    name: z.enum(JUDGE_METRIC_NAMES),
    columns: z.array(z.string()),
    signature: z.string(),
    /** The chat-completions endpoint and model; never the API key. */
    llm: z.object({ url: z.string(), model: z.string() }),
    /** False for the reference-free CRScore LaaJ judges, which also score the human reference. */
    needsReference: z.boolean(),
    /** SWE-Judge only. */
    team: sweTeamSchema.nullable(),
    /** SWE-Judge only: the human question whose scale the 0-100 ensemble maps onto (§3.3), that of the team trials' human scores; absent: 1-5. */
    question: z.object({ key: z.string(), min: z.number().int(), max: z.number().int() }).nullable().optional(),
  }),
]);
export type MetricJobSpec = z.infer<typeof specSchema>;

/** A spec as stored: runs planned before the glossary named it wrote the signature as "paramsKey". */
const storedSpec = (spec: unknown) =>
  spec !== null && typeof spec === "object" && "paramsKey" in spec && !("signature" in spec)
    ? Object.fromEntries(Object.entries(spec).map(([k, v]) => [k === "paramsKey" ? "signature" : k, v]))
    : spec;

/** MetricRun.params: everything a worker needs to compute a chunk exactly as planned. */
export const runParamsSchema = z.object({
  specs: z.array(z.preprocess(storedSpec, specSchema)),
  embedding: embeddingSchema.nullable(),
  chunkSize: z.number().int().positive(),
});
export type RunParams = z.infer<typeof runParamsSchema>;

/** Validates `--metric` names (aliases: the CRScore column names mean "crscore"); order kept, duplicates dropped. */
export function parseMetricNames(names: readonly string[]): string[] {
  const resolved = names.map((raw) => {
    const name = raw.trim();
    if ((CRSCORE_COLUMNS as readonly string[]).includes(name)) return CRSCORE;
    if (!METRIC_JOB_NAMES.includes(name)) throw new AppError("INVALID_INPUT", { message: `unknown metric "${name}"; available: ${METRIC_JOB_NAMES.join(", ")}` });
    return name;
  });
  if (resolved.length === 0) throw new AppError("INVALID_INPUT", { message: `no metric given; available: ${METRIC_JOB_NAMES.join(", ")}` });
  return [...new Set(resolved)];
}

/** Whether a metric needs embeddings. */
export const needsEmbeddings = (name: string) => name === EMBEDDING_SIM || name === CRSCORE;

/** The embedder part of a signature: model, and for the offline default its settings and fit. */
function embeddingSignature(embedding: RunEmbedding): string {
  if (!embedding.offline) return `emb:${embedding.model}`;
  return `emb:${embedding.model}|${TFIDF_SETTINGS}@${(embedding.corpusFingerprint ?? "").slice(0, 12)}`;
}

/** CRScore's τ in the signature: value, source, and for a calibrated one the system and items. */
function tauSignature(tau: TauChoice): string {
  const c = tau.calibration;
  const calibration = c ? `${c.system !== null ? `|tau-system:${c.system}` : ""}|tau-items:${c.items}` : "";
  return `tau:${tau.value.toFixed(4)}|tau-source:${tau.source}${calibration}`;
}

/** A run's CRScore threshold (lib/metric-runs/tau.ts). */
export interface TauChoice {
  value: number;
  source: TauSource;
  calibration?: NonNullable<Extract<MetricJobSpec, { kind: "crscore" }>["tauCalibration"]>;
}

/**
 * The spec of one metric; `embedding` is required for embedding metrics, `tau` for CRScore, whose
 * `pooling` (an endpoint's) goes into its signature: "pool:sentence" is the endpoint's own
 * sentence embedding, labelled because it is not the paper's token pooling.
 */
export function metricJobSpec(name: string, embedding: RunEmbedding | null, tau: TauChoice | null, pooling: EmbeddingPooling = "sentence"): MetricJobSpec {
  const reference = getReferenceMetric(name);
  if (reference) return { kind: "reference", name, columns: [name], signature: reference.signature };
  if (!embedding) throw new InvariantError(`metric ${name} needs an embedder`);
  if (name === EMBEDDING_SIM) return { kind: "embedding-sim", name, columns: [name], signature: `${embeddingSignature(embedding)}|sim:cosine|impl:1` };
  if (name !== CRSCORE || !tau) throw new InvariantError(`metric ${name} needs a threshold`);
  const tauText = tau.value.toFixed(4);
  return {
    kind: "crscore",
    name,
    columns: [...CRSCORE_COLUMNS],
    signature: `${embeddingSignature(embedding)}${embedding.offline ? "" : `|pool:${pooling}`}|split:crscore|refs:automatic|${tauSignature(tau)}|impl:1`,
    tau: Number(tauText),
    tauSource: tau.source,
    ...(tau.calibration ? { tauCalibration: tau.calibration } : {}),
    ...(embedding.offline ? {} : { pooling }),
  };
}

/** Whether a spec scores a review: reference-based metrics skip the human reference itself. */
export function specApplies(spec: MetricJobSpec, review: { isReference: boolean }): boolean {
  return spec.kind === "crscore" || (spec.kind === "judge" && !spec.needsReference) || !review.isReference;
}

/** Identity of a run's computation, to resume an unfinished run asked for again. */
export function runIdentity(params: RunParams): string {
  return [...params.specs.map((s) => `${s.name}@${s.signature}`), `chunk:${params.chunkSize}`].join("\n");
}
