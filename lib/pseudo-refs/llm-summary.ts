/** What a claims run's LLM calls took, summed over its changes (PseudoReferenceRunItem.detail). */
export interface LlmRunSummary {
  requests: number;
  cachedChanges: number;
  promptTokens: number;
  completionTokens: number;
  /** null when a model without a listed price answered. */
  costUsd: number | null;
  refusedChanges: number;
  models: string[];
}

/** What a claims run stored per change (PseudoReferenceRunItem.detail). */
export interface ItemDetail {
  model?: string;
  requests?: number;
  cached?: boolean;
  usage?: { promptTokens: number; completionTokens: number } | null;
  costUsd?: number | null;
  refused?: string;
}

export function summarizeLlm(details: readonly ItemDetail[]): LlmRunSummary {
  const summary: LlmRunSummary = { requests: 0, cachedChanges: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, refusedChanges: 0, models: [] };
  for (const d of details) {
    summary.requests += d.requests ?? 0;
    if (d.cached) summary.cachedChanges++;
    summary.promptTokens += d.usage?.promptTokens ?? 0;
    summary.completionTokens += d.usage?.completionTokens ?? 0;
    summary.costUsd = summary.costUsd === null || d.costUsd === null ? null : summary.costUsd + (d.costUsd ?? 0);
    if (d.refused) summary.refusedChanges++;
    if (d.model && !summary.models.includes(d.model)) summary.models.push(d.model);
  }
  return summary;
}
