/** A pseudo-reference run's jobs on the queue: one per code change, in each source's queue. */
import { PSEUDO_REFERENCE_QUEUE, STATIC_ANALYSIS_QUEUE } from "@/lib/jobs/queue";
import type { PseudoReferenceSourceName } from "./types";

export interface PseudoReferenceJobData {
  runId: string;
  codeChangeId: string;
}

/**
 * Static-analysis jobs a worker takes at once: each analyzer starts once per chunk (PMD's JVM
 * about 5 s of CPU, pylint about 1 s, then 15 ms a Java file); 50 real Python changes take a
 * minute or two on a loaded machine, well within the queue's expiry.
 */
export const STATIC_ANALYSIS_CHUNK = 50;

/**
 * Each source's queue and how many of its jobs a worker takes at once: the static analyzers
 * start once per chunk (a JVM, Python processes), so their jobs come in chunks, given more time
 * (the queue's expiry); an LLM claim gains nothing from company and comes alone. Which changes
 * share a chunk never changes their references, so the chunk size is no part of a run's signature.
 */
export const SOURCE_QUEUES: Record<PseudoReferenceSourceName, { queue: string; chunk: number }> = {
  smells: { queue: STATIC_ANALYSIS_QUEUE, chunk: STATIC_ANALYSIS_CHUNK },
  claims: { queue: PSEUDO_REFERENCE_QUEUE, chunk: 1 },
};
