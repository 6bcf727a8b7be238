/**
 * The OpenAI-compatible embedding client against a real HTTP server on loopback that speaks
 * the embeddings API: batching, retries after a 500 and after a timeout, and the database cache.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { createHttpEmbedder, embeddingsEndpoint, prismaEmbeddingStore, textHash } from "@/lib/embeddings";

interface Call {
  model: string;
  input: string[];
  authorization: string | undefined;
}

/** Deterministic 3-d vector of a text, with full-precision and tiny components (the cache must keep every bit). */
const vectorOf = (text: string) => [text.length / 7, (text.match(/a/g) ?? []).length / 3 + 0.1, 1.2345678901234568e-85];

/** Behaviour of the next requests: "ok", "500" or "hang" (answer after the client's timeout). */
let plan: ("ok" | "500" | "hang")[] = [];
const calls: Call[] = [];

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body = "";
  for await (const chunk of req) body += chunk;
  const { model, input } = JSON.parse(body) as { model: string; input: string[] };
  calls.push({ model, input, authorization: req.headers.authorization });
  const mode = plan.shift() ?? "ok";
  if (req.url !== "/v1/embeddings") {
    res.writeHead(404).end("not found");
    return;
  }
  if (mode === "500") {
    res.writeHead(500, { "content-type": "text/plain" }).end("upstream overloaded");
    return;
  }
  if (mode === "hang") await new Promise((resolve) => setTimeout(resolve, 400));
  const data = input.map((text, index) => ({ object: "embedding", index, embedding: vectorOf(text) })).reverse();
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", model, data }));
}

describe("OpenAI-compatible embeddings client", () => {
  const db = createClient(inject("databaseUrl"));
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await db.$disconnect();
  });
  beforeEach(() => {
    plan = [];
    calls.length = 0;
  });

  test("endpoint: base URL or full endpoint", () => {
    expect(embeddingsEndpoint("http://h/v1/")).toBe("http://h/v1/embeddings");
    expect(embeddingsEndpoint("http://h/v1/embeddings")).toBe("http://h/v1/embeddings");
  });

  test("batches the distinct texts, keeps order and sends the key", async () => {
    const texts = Array.from({ length: 10 }, (_, i) => `text ${"a".repeat(i)}`);
    const client = createHttpEmbedder({ url, model: "test-model", apiKey: "secret", batchSize: 4 });
    const vectors = await client.embedVectors([...texts, texts[0]]);
    expect(calls.map((c) => c.input.length)).toEqual([4, 4, 2]);
    expect(calls.every((c) => c.model === "test-model" && c.authorization === "Bearer secret")).toBe(true);
    expect(vectors).toEqual([...texts, texts[0]].map(vectorOf));
    const set = await client.embed(texts.slice(0, 2));
    expect(set.similarity(texts[0], texts[0])).toBeCloseTo(1, 12);
  });

  test("retries after a 500 with backoff", async () => {
    plan = ["500", "500", "ok"];
    const client = createHttpEmbedder({ url, model: "m", backoffMs: 10 });
    expect(await client.embedVectors(["x", "y"])).toEqual([vectorOf("x"), vectorOf("y")]);
    expect(calls).toHaveLength(3);
  });

  test("retries after a timeout", async () => {
    plan = ["hang", "ok"];
    const client = createHttpEmbedder({ url, model: "m", timeoutMs: 100, backoffMs: 10 });
    expect(await client.embedVectors(["slow"])).toEqual([vectorOf("slow")]);
    expect(calls).toHaveLength(2);
  });

  test("gives up after maxRetries with the server's message; 4xx is not retried", async () => {
    plan = ["500", "500", "500"];
    await expect(createHttpEmbedder({ url, model: "m", maxRetries: 2, backoffMs: 1 }).embedVectors(["x"])).rejects.toThrow(/500: upstream overloaded/);
    expect(calls).toHaveLength(3);
    calls.length = 0;
    await expect(createHttpEmbedder({ url: url.replace("/v1", "/v2"), model: "m", backoffMs: 1 }).embedVectors(["x"])).rejects.toThrow(/404/);
    expect(calls).toHaveLength(1);
  });

  test("cache: vectors stored by (model, text hash); a second call makes no request", async () => {
    const store = prismaEmbeddingStore(db);
    const client = createHttpEmbedder({ url, model: "cache-model", store, batchSize: 2 });
    await client.embedVectors(["alpha", "beta", "gamma"]);
    expect(calls).toHaveLength(2);
    const row = await db.embeddingCache.findUnique({ where: { model_textHash: { model: "cache-model", textHash: textHash("alpha") } } });
    expect(row?.vector).toEqual(vectorOf("alpha"));

    calls.length = 0;
    const again = createHttpEmbedder({ url, model: "cache-model", store });
    expect(await again.embedVectors(["gamma", "alpha"])).toEqual([vectorOf("gamma"), vectorOf("alpha")]);
    expect(calls).toHaveLength(0);

    // Another model does not share the cache; only the uncached text is requested.
    await createHttpEmbedder({ url, model: "other-model", store }).embedVectors(["alpha"]);
    await again.embedVectors(["alpha", "delta"]);
    expect(calls.map((c) => c.input)).toEqual([["alpha"], ["delta"]]);
  });
});
