/**
 * Pseudo-reference runs from the web page: input validation and enqueueing for the worker
 * (scripts/worker.ts), which computes them; the page follows their rows.
 */
import { z } from "zod";
import { createJobContext } from "@/lib/metric-runs/context";
import { PSEUDO_REFERENCE_SOURCES, requestPseudoReferenceRuns } from "./runs";
import type { PseudoReferenceSourceName } from "./types";

export const startPseudoRefsSchema = z.object({
  source: z.enum(["smells", "claims", "all"]),
  temperature: z.number().min(0).max(2).optional(),
  seed: z.number().int().optional(),
  budgetUsd: z.number().positive().optional(),
});

export async function startWebPseudoReferenceRuns(studyId: string, input: z.infer<typeof startPseudoRefsSchema>, accountId: string) {
  const sources: PseudoReferenceSourceName[] = input.source === "all" ? PSEUDO_REFERENCE_SOURCES : [input.source];
  const { temperature, seed, budgetUsd } = input;
  const started = await requestPseudoReferenceRuns(createJobContext(), studyId, sources, { temperature, seed, budgetUsd }, accountId);
  return started.map((s) => ({ runId: s.run.id, source: s.run.source, status: s.run.status, total: s.run.total, done: s.run.done, resumed: s.resumed, enqueued: s.enqueued }));
}
