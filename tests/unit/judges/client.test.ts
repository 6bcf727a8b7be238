/**
 * The chat-completions client against a real HTTP server on loopback: request shape, retries
 * after a 500, a 429 and a timeout, bounded attempts with a clear error, the concurrency limit,
 * cancellation, and the configuration errors when no endpoint is set.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  backoffDelay,
  chatCompletionsEndpoint,
  createChatClient,
  llmJudgeAvailability,
  LlmNotConfiguredError,
  LlmRequestError,
  parseRetryAfter,
  resolveLlmConfig,
  type ChatClientOptions,
} from "@/lib/judges";
import { startFakeLlm, type FakeLlm } from "./fake-llm";

const messages = [{ role: "user" as const, content: "Grade this." }];

describe("configuration", () => {
  test("no endpoint: a clear error naming LLM_URL, and no offline default", () => {
    expect(() => resolveLlmConfig({}, {})).toThrow(LlmNotConfiguredError);
    expect(() => resolveLlmConfig({}, {})).toThrow("LLM judge not configured: set LLM_URL");
    expect(() => createChatClient({}, {})).toThrow("LLM judge not configured: set LLM_URL");
    expect(llmJudgeAvailability({}, {})).toEqual({ available: false, message: expect.stringContaining("set LLM_URL") });
  });

  test("a URL without a model names LLM_MODEL", () => {
    expect(() => resolveLlmConfig({}, { LLM_URL: "http://h" })).toThrow("set LLM_MODEL");
  });

  test("options override the environment; the key is optional", () => {
    const env = { LLM_URL: "http://env", LLM_MODEL: "env-model", LLM_API_KEY: "k" };
    expect(resolveLlmConfig({}, env)).toEqual({ url: "http://env", model: "env-model", apiKey: "k" });
    expect(resolveLlmConfig({ url: "http://opt", model: "m" }, { LLM_URL: "http://env" })).toEqual({ url: "http://opt", model: "m" });
    expect(llmJudgeAvailability({}, env)).toEqual({ available: true, model: "env-model" });
  });

  test("endpoint from a base URL, a /v1 base or the full endpoint", () => {
    expect(chatCompletionsEndpoint("http://h:8000")).toBe("http://h:8000/v1/chat/completions");
    expect(chatCompletionsEndpoint("http://h:8000/v1/")).toBe("http://h:8000/v1/chat/completions");
    expect(chatCompletionsEndpoint("http://h/openai/v1/chat/completions")).toBe("http://h/openai/v1/chat/completions");
    expect(chatCompletionsEndpoint("https://h/v1?api-version=2")).toBe("https://h/v1/chat/completions?api-version=2");
    expect(() => chatCompletionsEndpoint("localhost:8000")).toThrow("not an absolute http(s) URL");
    expect(() => chatCompletionsEndpoint("not a url")).toThrow("not an absolute http(s) URL");
  });
});

describe("backoff", () => {
  test("doubles from the base, jittered to [1/2, 1], capped", () => {
    expect(backoffDelay(1, 100, 10_000, () => 0)).toBe(50);
    expect(backoffDelay(1, 100, 10_000, () => 1)).toBe(100);
    expect(backoffDelay(3, 100, 10_000, () => 1)).toBe(400);
    expect(backoffDelay(20, 100, 1000, () => 1)).toBe(1000);
  });

  test("Retry-After in seconds or as an HTTP date", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter("soon")).toBeNull();
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", Date.parse("2026-01-01T00:00:00Z"))).toBe(10_000);
  });
});

describe("chat-completions client over HTTP", () => {
  let fake: FakeLlm;
  const client = (options: ChatClientOptions = {}) => createChatClient({ url: fake.url, model: "judge-model", backoffMs: 5, ...options }, {});

  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  test("posts model, messages and temperature 0 to /v1/chat/completions with the key", async () => {
    fake.handle(() => ({ content: "4" }));
    const answer = await client({ apiKey: "sk-test", maxTokens: 8 }).complete({ messages });
    expect(answer).toEqual({ content: "4", model: "judge-model-served", finishReason: "stop", attempts: 1, usage: { promptTokens: 3, completionTokens: 1 }, costUsd: null, cached: false });
    expect(fake.requests).toEqual([{ path: "/v1/chat/completions", authorization: "Bearer sk-test", model: "judge-model", messages, temperature: 0, maxTokens: 8, seed: undefined }]);
  });

  test("the environment configures the client", async () => {
    fake.handle(() => ({ content: "ok" }));
    const fromEnv = createChatClient({}, { LLM_URL: `${fake.url}/v1`, LLM_MODEL: "env-model" });
    await fromEnv.complete({ messages });
    expect(fake.requests[0]).toMatchObject({ model: "env-model", authorization: undefined });
    expect(fromEnv.endpoint).toBe(`${fake.url}/v1/chat/completions`);
  });

  test("a null message content reads as empty text", async () => {
    fake.handle(() => ({ content: null }));
    expect((await client().complete({ messages })).content).toBe("");
  });

  test("retries after a 500", async () => {
    fake.handle((_, i) => (i === 0 ? { status: 500, body: "upstream overloaded" } : { content: "3" }));
    const answer = await client().complete({ messages });
    expect(answer).toMatchObject({ content: "3", attempts: 2 });
    expect(fake.requests).toHaveLength(2);
  });

  test("retries after a 429, waiting as Retry-After says", async () => {
    fake.handle((_, i) => (i === 0 ? { status: 429, body: "slow down", headers: { "retry-after": "0" } } : { content: "2" }));
    expect(await client({ backoffMs: 60_000 }).complete({ messages })).toMatchObject({ content: "2", attempts: 2 });
  });

  test("retries after a timeout (the server answers after the client gave up)", async () => {
    fake.handle((_, i) => (i === 0 ? { delayMs: 400, content: "late" } : { content: "5" }));
    const answer = await client({ timeoutMs: 100 }).complete({ messages });
    expect(answer).toMatchObject({ content: "5", attempts: 2 });
  });

  test("bounded retries, then an error naming the endpoint, the status and the attempts", async () => {
    fake.handle(() => ({ status: 503, body: "model is loading" }));
    const error = await client({ maxAttempts: 3, apiKey: "sk-secret" })
      .complete({ messages })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({ status: 503, attempts: 3, retryable: true, endpoint: `${fake.url}/v1/chat/completions` });
    expect((error as Error).message).toBe(`LLM request to ${fake.url}/v1/chat/completions failed after 3 attempts: HTTP 503: model is loading`);
    expect((error as Error).message).not.toContain("sk-secret");
    expect(fake.requests).toHaveLength(3);
  });

  test("timeouts on every attempt end in a timeout error", async () => {
    fake.handle(() => ({ delayMs: 300, content: "late" }));
    const error = await client({ timeoutMs: 50, maxAttempts: 2 })
      .complete({ messages })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: null, attempts: 2 });
    expect((error as Error).message).toContain("failed after 2 attempts: timed out after 50 ms");
  });

  test("a 400 is not retried", async () => {
    fake.handle(() => ({ status: 400, body: '{"error": "unknown model"}' }));
    const error = await client()
      .complete({ messages })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, attempts: 1, retryable: false });
    expect((error as Error).message).toBe(`LLM request to ${fake.url}/v1/chat/completions failed: HTTP 400: {"error": "unknown model"}`);
    expect(fake.requests).toHaveLength(1);
  });

  test("a body that is not a chat completion is an error, not retried", async () => {
    fake.handle(() => ({ raw: "<html>proxy login</html>" }));
    await expect(client().complete({ messages })).rejects.toThrow("the answer is not a chat completion");
    expect(fake.requests).toHaveLength(1);
  });

  test("an unreachable endpoint is retried, then named in the error", async () => {
    const closed = await startFakeLlm();
    await closed.close();
    const dead = createChatClient({ url: closed.url, model: "m", maxAttempts: 2, backoffMs: 1 }, {});
    await expect(dead.complete({ messages })).rejects.toThrow(`LLM request to ${closed.url}/v1/chat/completions failed after 2 attempts: network error`);
  });

  test("credentials in the URL are refused without being echoed (the key belongs in LLM_API_KEY)", () => {
    const create = () => createChatClient({ url: fake.url.replace("http://", "http://user:pw@"), model: "m" }, {});
    expect(create).toThrow("must not contain user:password; pass the key as LLM_API_KEY");
    expect(create).not.toThrow("pw@");
  });

  test("the query string stays out of the endpoint shown in errors", () => {
    expect(createChatClient({ url: `${fake.url}/v1/chat/completions?api-key=secret`, model: "m" }, {}).endpoint).toBe(`${fake.url}/v1/chat/completions`);
  });

  test("at most maxConcurrency requests in flight; the rest wait their turn", async () => {
    fake.handle(() => ({ delayMs: 40, content: "1" }));
    const limited = client({ maxConcurrency: 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => limited.complete({ messages })));
    expect(answers.map((a) => a.content)).toEqual(["1", "1", "1", "1", "1", "1"]);
    expect(fake.maxInFlight).toBe(2);
  });

  test("a caller's abort cancels without retrying", async () => {
    fake.handle(() => ({ delayMs: 300, content: "late" }));
    const controller = new AbortController();
    const pending = client().complete({ messages, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stopped by the user")), 30);
    await expect(pending).rejects.toThrow("stopped by the user");
    expect(fake.requests).toHaveLength(1);
  });
});
