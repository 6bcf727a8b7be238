/**
 * The reproducible LLM layer against a chat-completions server on loopback: the seed and
 * temperature sent, usage and estimated cost per answer, the response cache (the same request
 * is not sent again; separate samples are), truncated answers asked again with a doubled
 * max_tokens and refused after the allowed re-asks, and a budget that stops the requests.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { askParsed, createBudget, createChatClient, estimateCost, GRADE_1_5, gradeAgainstReference, LlmBudgetError, LlmRequestError, modelPrice, parseScore, type CacheEntry, type ChatCache, type ChatClientOptions } from "@/lib/judges";
import { startFakeLlm, type FakeLlm } from "./fake-llm";

const messages = [{ role: "user" as const, content: "Grade this review." }];

/** A ChatCache in memory (the PostgreSQL one, lib/judges/cache.ts, is exercised by the claim-generation test). */
function memoryCache(): ChatCache & { entries: Map<string, CacheEntry> } {
  const entries = new Map<string, CacheEntry>();
  return { entries, get: async (key) => entries.get(key) ?? null, put: async (key, entry) => void entries.set(key, entry) };
}

describe("prices", () => {
  test("the longest listed prefix of the reported model; unlisted models have no estimate", () => {
    expect(modelPrice("gpt-4o-mini-2024-07-18")).toEqual({ inputPerMillion: 0.15, outputPerMillion: 0.6 });
    expect(modelPrice("gpt-4o-2024-08-06")).toEqual({ inputPerMillion: 2.5, outputPerMillion: 10 });
    expect(modelPrice("gpt-4ox")).toBeNull();
    expect(estimateCost("gpt-4o-mini", { promptTokens: 1_000_000, completionTokens: 500_000 })).toBeCloseTo(0.45, 10);
    expect(estimateCost("llama3:8b", { promptTokens: 10, completionTokens: 10 })).toBeNull();
  });
});

describe("reproducible chat client", () => {
  let fake: FakeLlm;
  const client = (options: ChatClientOptions = {}) => createChatClient({ url: fake.url, model: "gpt-4o-mini", backoffMs: 5, ...options }, {});

  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  test("temperature and seed of the run are sent; usage and cost of the reported model come back", async () => {
    fake.handle(() => ({ content: "4", usage: { prompt_tokens: 1000, completion_tokens: 10 } }));
    const answer = await client({ temperature: 0.7, seed: 42 }).complete({ messages });
    expect(fake.requests[0]).toMatchObject({ temperature: 0.7, seed: 42 });
    expect(answer).toMatchObject({ model: "gpt-4o-mini-served", usage: { promptTokens: 1000, completionTokens: 10 }, cached: false });
    expect(answer.costUsd).toBeCloseTo((1000 * 0.15 + 10 * 0.6) / 1e6, 12);
  });

  test("a cached request is not sent again; another sample, seed or prompt version is", async () => {
    fake.handle((_, i) => ({ content: String(i + 1) }));
    const cache = memoryCache();
    const first = await client({ cache }).complete({ messages, promptVersion: "p1" });
    const again = await client({ cache }).complete({ messages, promptVersion: "p1" });
    expect(fake.requests).toHaveLength(1);
    expect(again).toMatchObject({ content: first.content, model: first.model, usage: first.usage, cached: true, attempts: 0 });
    await client({ cache }).complete({ messages, promptVersion: "p1", sample: "trial 1" });
    await client({ cache, seed: 7 }).complete({ messages, promptVersion: "p1" });
    await client({ cache }).complete({ messages, promptVersion: "p2" });
    expect(fake.requests).toHaveLength(4);
    expect([...cache.entries.values()][0]).toMatchObject({ requestedModel: "gpt-4o-mini", model: "gpt-4o-mini-served", promptVersion: "p1", params: { temperature: 0, seed: null, maxTokens: null, sample: "" } });
  });

  test("an answer cut off at the token limit is asked again with twice the limit; its tokens count", async () => {
    fake.handle((_, i) => (i === 0 ? { content: "The grade i", finishReason: "length", usage: { prompt_tokens: 10, completion_tokens: 4 } } : { content: "4", usage: { prompt_tokens: 10, completion_tokens: 1 } }));
    const answer = await client({ maxTokens: 4 }).complete({ messages });
    expect(fake.requests.map((r) => r.maxTokens)).toEqual([4, 8]);
    expect(answer).toMatchObject({ content: "4", finishReason: "stop", attempts: 2, usage: { promptTokens: 20, completionTokens: 5 } });
  });

  test("an answer still cut off after the allowed re-asks is refused, not used", async () => {
    fake.handle(() => ({ content: "Grade", finishReason: "length" }));
    const failed = await client({ maxTokens: 2, lengthRetries: 2 }).complete({ messages }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(LlmRequestError);
    expect((failed as Error).message).toMatch(/cut off at the token limit \(finish_reason "length"\) 3 times, the last time at max_tokens 8/);
    expect(fake.requests).toHaveLength(3);
  });

  test("a budget stops the run's requests once spent; cached answers cost nothing", async () => {
    fake.handle(() => ({ content: "3", usage: { prompt_tokens: 600, completion_tokens: 0 } }));
    const budget = createBudget({ tokens: 1000 });
    const cache = memoryCache();
    const c = client({ budget, cache });
    await c.complete({ messages, sample: "a" });
    await c.complete({ messages, sample: "b" });
    await expect(c.complete({ messages, sample: "c" })).rejects.toThrow(LlmBudgetError);
    await expect(c.complete({ messages, sample: "c" })).rejects.toThrow("LLM budget of 1000 tokens reached (1200 spent in 2 requests)");
    expect((await c.complete({ messages, sample: "a" })).cached).toBe(true);
    expect(budget).toMatchObject({ requests: 2, spentTokens: 1200, cachedAnswers: 1 });
    expect(fake.requests).toHaveLength(2);

    const dollars = createBudget({ usd: 0.00005 });
    const priced = client({ budget: dollars });
    await priced.complete({ messages });
    await expect(priced.complete({ messages })).rejects.toThrow(/LLM budget of \$0.00005 reached/);
  });

  test("GradedReviews rule 4: an answer naming two numbers is asked again, not mined for one", async () => {
    fake.handle((_, i) => ({ content: i === 0 ? "The review mentions 2 issues; I rate it 4" : "4" }));
    const asked = await askParsed(client(), messages, (t) => parseScore(t, GRADE_1_5), 3);
    expect(asked).toMatchObject({ ok: true, value: 4, outputs: ["The review mentions 2 issues; I rate it 4", "4"] });
    if (asked.ok) expect(asked.completions.map((c) => c.content)).toEqual(asked.outputs);
  });

  test("GradedReviews' three trials are separate samples: with a cache each is still asked, and a re-run asks nothing", async () => {
    fake.handle((_, i) => ({ content: String([3, 4, 4][i % 3]) }));
    const cache = memoryCache();
    const input = { generated: "Rename tmp.", reference: "Please rename tmp to something descriptive." };
    const first = await gradeAgainstReference(client({ cache, temperature: 0.8, seed: 1 }), input);
    expect(first.detail.grades).toEqual([3, 4, 4]);
    expect(fake.requests).toHaveLength(3);
    const rerun = await gradeAgainstReference(client({ cache, temperature: 0.8, seed: 1 }), input);
    expect(rerun).toEqual(first);
    expect(fake.requests).toHaveLength(3);
  });
});
