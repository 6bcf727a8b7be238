/** Generating CRScore's pseudo-references in the product (§3.1): static-analysis smells and LLM claims, as resumable runs. */
export { drainPseudoReferenceRun, processPseudoReferenceJobs, PSEUDO_REFERENCE_SOURCES, requestPseudoReferenceRuns, settlePseudoReferenceJobs, startPseudoReferenceRun, type StartedPseudoReferenceRun } from "./runs";
export { SOURCE_QUEUES, STATIC_ANALYSIS_CHUNK, type PseudoReferenceJobData } from "./queues";
export { workPseudoReferenceJobs } from "./work";
export { smellReference, smellSource } from "./smells";
export type { Generated, GeneratedReference, PseudoReferenceSource, PseudoReferenceSourceName, SourcePlan } from "./types";
export { claimSource, type ClaimRunOptions } from "./claims";
export { CLAIM_PROMPT_PLACEHOLDERS, claimPromptOf, claimPromptProblem, DEFAULT_CLAIM_PROMPT, fillClaimPrompt, parseClaims, promptVersion, type ParsedClaims } from "./claim-prompt";
export { type LlmRunSummary } from "./llm-summary";
export { smellTables, type SmellTables } from "./smell-tables";
