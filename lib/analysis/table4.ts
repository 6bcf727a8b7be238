/** CRScore Table 4 of a study with the embedder its CRScore runs use (the configured endpoint, else the offline TF-IDF default fitted on the study). */
import type { PrismaClient } from "@/lib/db/client";
import { createHttpEmbedder, prismaEmbeddingStore, resolveEmbeddingConfig } from "@/lib/embeddings";
import { createJobContext, fitStudyEmbedder } from "@/lib/jobs/context";
import { calibrateStudyTau } from "@/lib/jobs/plan";
import { claimLinkPairs, table4Rows, type Table4Row } from "./claim-links";

export interface Table4Report {
  title: string;
  embedder: { model: string; offline: boolean };
  /** The study's τ by the paper's procedure on its own reviews (lib/jobs/plan.ts), and its source. */
  calibratedTau: { value: number; source: string };
  ratings: number;
  pairs: number;
  linked: number;
  rows: Table4Row[];
}

export async function table4Report(studyId: string, client: PrismaClient): Promise<Table4Report> {
  const config = resolveEmbeddingConfig();
  const embedder =
    config.kind === "http" ? createHttpEmbedder({ url: config.url, model: config.model, apiKey: config.apiKey, store: prismaEmbeddingStore(client) }) : (await fitStudyEmbedder(studyId, client)).embedder;
  const calibratedTau = await calibrateStudyTau(createJobContext({ client }), studyId, embedder);
  const { pairs, ratings } = await claimLinkPairs(studyId, client, embedder);
  return {
    title: "CRScore Table 4: precision, recall and F1 of the similarity threshold against the annotators' stage-2 claim links",
    embedder: { model: config.model, offline: config.kind === "offline" },
    calibratedTau,
    ratings,
    pairs: pairs.length,
    linked: pairs.filter((p) => p.linked).length,
    rows: table4Rows(pairs, calibratedTau.value),
  };
}
