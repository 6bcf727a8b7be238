/** CRScore Table 4 of a study with the embedder its CRScore runs use (the configured endpoint, else the offline TF-IDF default fitted on the study). */
import { linkedRatings } from "@/lib/data/claim-links";
import { type EmbeddingPooling, resolveEmbeddingConfig } from "@/lib/embeddings";
import { createJobContext, fitStudyEmbedder, type MetricJobContext, runEmbedder } from "@/lib/metric-runs/context";
import { crscorePooling } from "@/lib/metric-runs/plan";
import type { TauChoice } from "@/lib/metric-runs/specs";
import { calibrateStudyTau, planTau } from "@/lib/metric-runs/tau";
import { claimLinkPairs, table4Rows, type Table4Row } from "./claim-links";

export const TABLE_4_TITLE = "CRScore Table 4: precision, recall and F1 of the similarity threshold against the annotators' stage-2 claim links";

export interface Table4Report {
  title: string;
  embedder: { model: string; offline: boolean; pooling: EmbeddingPooling | null };
  /** The τ CRScore runs use by default (the paper's for its model, else calibrated by the paper's procedure, lib/metric-runs/tau.ts): the paper's τ_best row. */
  tau: TauChoice;
  /** τ calibrated on the human reference reviews (the paper's τ_GT row). */
  tauGt: TauChoice;
  ratings: number;
  pairs: number;
  linked: number;
  rows: Table4Row[];
}

export async function table4Report(studyId: string, context: MetricJobContext = createJobContext()): Promise<Table4Report> {
  const config = resolveEmbeddingConfig();
  let pooling: EmbeddingPooling | null = null;
  let embedder;
  if (config.kind === "http") {
    const embedding = { model: config.model, offline: false, url: config.url, corpusFingerprint: null };
    pooling = await crscorePooling(embedding, context);
    embedder = await runEmbedder(context, studyId, embedding, pooling);
  } else embedder = (await fitStudyEmbedder(studyId)).embedder;
  const tau = await planTau(context, studyId, config, embedder, {});
  const tauGt = await calibrateStudyTau(context, studyId, embedder, "gt");
  const { pairs, ratings } = await claimLinkPairs(await linkedRatings(studyId), embedder);
  return {
    title: TABLE_4_TITLE,
    embedder: { model: config.model, offline: config.kind === "offline", pooling },
    tau,
    tauGt,
    ratings,
    pairs: pairs.length,
    linked: pairs.filter((p) => p.linked).length,
    rows: table4Rows(pairs, [
      { tau: tau.value, kind: "tau" },
      { tau: tauGt.value, kind: "gt" },
    ]),
  };
}
