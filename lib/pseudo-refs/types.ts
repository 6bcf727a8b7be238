/** What a pseudo-reference source (static analysis, LLM claims) gives the run machinery (./runs). */
import type { CodeChange, PseudoReferenceKind } from "@/lib/generated/prisma/client";
import type { MetricJobContext } from "@/lib/metric-runs/context";

export type PseudoReferenceSourceName = "smells" | "claims";

export interface SourcePlan {
  /** Equal signatures mean the same computation: a run of it is resumed rather than started again. */
  signature: string;
  params: Record<string, unknown>;
  /** The code changes the run covers, in study order. */
  codeChangeIds: string[];
}

export interface GeneratedReference {
  /** Unique within the change; a reference already stored under it is left as it is. */
  externalId: string;
  kind: PseudoReferenceKind;
  text: string;
  /** Tool or model name, as imported pseudo-references have it. */
  source: string;
  metadata: Record<string, unknown>;
}

export interface Generated {
  references: GeneratedReference[];
  /** Stored with the change's run item: per tool findings and seconds, or LLM usage and cost. */
  detail: Record<string, unknown>;
}

export type ChangeToGenerate = Pick<CodeChange, "id" | "studyId" | "externalId" | "filePath" | "language" | "diff" | "oldFile" | "newFile">;

export interface PseudoReferenceSource {
  plan(context: MetricJobContext, studyId: string, options: Record<string, unknown>): Promise<SourcePlan>;
  /** The references of each change, in the changes' order (a chunk of the run's changes, see SOURCE_QUEUES). */
  generate(context: MetricJobContext, run: { id: string; params: Record<string, unknown> }, changes: readonly ChangeToGenerate[]): Promise<Generated[]>;
}
