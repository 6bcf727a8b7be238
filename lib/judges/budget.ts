/**
 * A run's spending limit on the LLM: estimated USD and/or tokens. Every request the client
 * sends is counted (retries and re-asked truncated answers too, cached answers not); once the
 * limit is reached the next request throws LlmBudgetError, which stops the run.
 */
import type { TokenUsage } from "./prices";

export interface LlmBudget {
  readonly limitUsd: number | null;
  readonly limitTokens: number | null;
  spentUsd: number;
  spentTokens: number;
  requests: number;
  /** Requests whose model has no listed price: their cost is not in spentUsd. */
  unpricedRequests: number;
  cachedAnswers: number;
}

export class LlmBudgetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LlmBudgetError";
  }
}

export function createBudget(limits: { usd?: number | null; tokens?: number | null } = {}): LlmBudget {
  for (const [name, v] of Object.entries(limits)) if (v !== undefined && v !== null && !(v > 0)) throw new RangeError(`the ${name} budget must be positive, got ${v}`);
  return { limitUsd: limits.usd ?? null, limitTokens: limits.tokens ?? null, spentUsd: 0, spentTokens: 0, requests: 0, unpricedRequests: 0, cachedAnswers: 0 };
}

/** Throws when the budget is spent. */
export function checkBudget(budget: LlmBudget): void {
  if (budget.limitUsd !== null && budget.spentUsd >= budget.limitUsd) throw new LlmBudgetError(`LLM budget of $${budget.limitUsd} reached ($${budget.spentUsd.toFixed(4)} spent in ${budget.requests} requests)`);
  if (budget.limitTokens !== null && budget.spentTokens >= budget.limitTokens) throw new LlmBudgetError(`LLM budget of ${budget.limitTokens} tokens reached (${budget.spentTokens} spent in ${budget.requests} requests)`);
}

export function spend(budget: LlmBudget, usage: TokenUsage | null, costUsd: number | null): void {
  budget.requests++;
  if (usage) budget.spentTokens += usage.promptTokens + usage.completionTokens;
  if (costUsd === null) budget.unpricedRequests++;
  else budget.spentUsd += costUsd;
}
