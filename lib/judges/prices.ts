/**
 * Estimated cost of a chat completion from its token usage: USD per million input and output
 * tokens of the providers' public list prices, matched by the longest prefix of the model name
 * the server reported ("gpt-4o-mini-2024-07-18" → gpt-4o-mini). A model not listed (a local
 * model, a new one) has no estimate; callers say so rather than count it as free.
 */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  "gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  "gpt-4o": { inputPerMillion: 2.5, outputPerMillion: 10 },
  "gpt-4.1-nano": { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  "gpt-4.1-mini": { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  "gpt-4.1": { inputPerMillion: 2, outputPerMillion: 8 },
  "gpt-4-turbo": { inputPerMillion: 10, outputPerMillion: 30 },
  "gpt-3.5-turbo": { inputPerMillion: 0.5, outputPerMillion: 1.5 },
};

export function modelPrice(model: string, prices: Readonly<Record<string, ModelPrice>> = MODEL_PRICES): ModelPrice | null {
  const name = model.toLowerCase();
  const match = Object.keys(prices)
    .filter((prefix) => name === prefix || name.startsWith(`${prefix}-`))
    .sort((a, b) => b.length - a.length)[0];
  return match ? prices[match] : null;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** USD, or null when the model has no listed price. */
export function estimateCost(model: string, usage: TokenUsage, prices?: Readonly<Record<string, ModelPrice>>): number | null {
  const price = modelPrice(model, prices);
  if (!price) return null;
  return (usage.promptTokens * price.inputPerMillion + usage.completionTokens * price.outputPerMillion) / 1e6;
}
