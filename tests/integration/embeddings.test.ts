/**
 * The OpenAI-compatible embedding client against a real HTTP server on loopback that speaks
 * the embeddings API (`/v1/embeddings`) and text-embeddings-inference's token API (`/embed_all`,
 * `/tokenize`; not under `/plain`): batching, retries after a 500 and after a timeout, the
 * database cache, CRScore §3.3's token pooling without stopwords, and CRScore runs over the
 * endpoint with the paper's τ or τ calibrated by the paper's procedure.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from "vitest";
import type PgBoss from "pg-boss";
import { createClient } from "@/lib/db/client";
import { cachedModelName, createHttpEmbedder, embeddingsEndpoint, offersTokenEmbeddings, textHash } from "@/lib/embeddings";
import { embeddingCacheStore } from "@/lib/data/embedding-cache";
import { bestRatedSystem, createJobContext, drainMetricRun, runParams, startMetricRun } from "@/lib/metric-runs";
import { startQueue } from "@/lib/jobs";
import { metricValuesForStudy } from "@/lib/data/metric-scores";
import { CODEREVIEWER_STOPWORDS, cosineSimilarity, CRSCORE_DEFAULT_TAU } from "@/lib/metrics";

interface Call {
  model: string;
  input: string[];
  authorization: string | undefined;
}

/** Deterministic 3-d vector of a text, with full-precision and tiny components (the cache must keep every bit). */
const vectorOf = (text: string) => [text.length / 7, (text.match(/a/g) ?? []).length / 3 + 0.1, 1.2345678901234568e-85];

/** The token server: whitespace words between [CLS] and [SEP], each word a deterministic 3-d vector; special tokens far from every word. */
const SPECIAL = [50, -50, 50];
const tokenVector = (word: string) => [word.length, (word.match(/[aeiou]/g) ?? []).length + 0.5, word.charCodeAt(0) - 96];
const words = (text: string) => text.split(/\s+/).filter((w) => w !== "");
/** What the client must compute: the mean of the vectors of the words that are not stopwords. */
const pooledByHand = (text: string) => {
  const content = words(text).filter((w) => !CODEREVIEWER_STOPWORDS.has(w));
  return [0, 1, 2].map((d) => content.reduce((s, w) => s + tokenVector(w)[d], 0) / content.length);
};

/** Behaviour of the next requests: "ok", "500" or "hang" (answer after the client's timeout). */
let plan: ("ok" | "500" | "hang")[] = [];
const calls: Call[] = [];

const tokenCalls: string[] = [];

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body = "";
  for await (const chunk of req) body += chunk;
  if (req.url === "/embed_all" || req.url === "/tokenize") {
    const { inputs } = JSON.parse(body) as { inputs: string[] };
    tokenCalls.push(`${req.url} ${inputs.length}`);
    const answer =
      req.url === "/tokenize"
        ? inputs.map((t) => [{ id: 101, text: "[CLS]", special: true }, ...words(t).map((w, i) => ({ id: 1000 + i, text: w, special: false })), { id: 102, text: "[SEP]", special: true }])
        : inputs.map((t) => [SPECIAL, ...words(t).map(tokenVector), SPECIAL]);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    return;
  }
  const { model, input } = JSON.parse(body) as { model: string; input: string[] };
  calls.push({ model, input, authorization: req.headers.authorization });
  const mode = plan.shift() ?? "ok";
  if (req.url !== "/v1/embeddings" && req.url !== "/plain/v1/embeddings") {
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
    tokenCalls.length = 0;
  });

  test("endpoint: base URL or full endpoint", () => {
    expect(embeddingsEndpoint("http://h/v1/")).toBe("http://h/v1/embeddings");
    expect(embeddingsEndpoint("http://h/v1/embeddings")).toBe("http://h/v1/embeddings");
  });

  test("batches the distinct texts, keeps order and sends the key", async () => {
    const texts = Array.from({ length: 10 }, (_, i) => `text ${"a".repeat(i)}`);
    const client = createHttpEmbedder({ url, model: "test-model", apiKey: "secret", textsPerRequest: 4 });
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
    const store = embeddingCacheStore;
    const client = createHttpEmbedder({ url, model: "cache-model", store, textsPerRequest: 2 });
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

  test("token pooling (CRScore §3.3): /tokenize and /embed_all, stopwords and special tokens left out, cached apart from sentence vectors", async () => {
    expect(await offersTokenEmbeddings({ url })).toBe(true);
    expect(await offersTokenEmbeddings({ url: url.replace("/v1", "/plain/v1") })).toBe(false);
    expect(tokenCalls).toEqual(["/embed_all 1"]);
    tokenCalls.length = 0;
    calls.length = 0;
    const store = embeddingCacheStore;
    const texts = ["why rename the cache", "stale cache entries are never evicted"];
    const pooled = createHttpEmbedder({ url, model: "pool-model", store, pooling: "tokens-without-stopwords" });
    const vectors = await pooled.embedVectors(texts);
    texts.forEach((t, i) => vectors[i].forEach((v, d) => expect(v).toBeCloseTo(pooledByHand(t)[d], 12)));
    expect(tokenCalls.sort()).toEqual(["/embed_all 2", "/tokenize 2"]);
    expect(calls).toHaveLength(0);
    // The sentence embedding of the same model is another cache entry; the pooled one is not asked again.
    expect(await createHttpEmbedder({ url, model: "pool-model", store }).embedVectors([texts[0]])).toEqual([vectorOf(texts[0])]);
    tokenCalls.length = 0;
    await createHttpEmbedder({ url, model: "pool-model", store, pooling: "tokens-without-stopwords" }).embedVectors(texts);
    expect(tokenCalls).toHaveLength(0);
    expect(await db.embeddingCache.count({ where: { model: cachedModelName("pool-model", "tokens-without-stopwords") } })).toBe(2);
  });
});

describe("CRScore over an embeddings endpoint: the paper's τ for its model, else τ calibrated by the paper's procedure", () => {
  const dbUrl = inject("databaseUrl");
  const db = createClient(dbUrl);
  let server: Server;
  let url: string;
  let boss: PgBoss;
  let studyId: string;
  const claims = ["the cache entries are evicted after one hour", "a stale entry is returned while reloading"];
  /** Reviews of four changes: changes 0 and 1 are annotated (sys-good rated 5, sys-poor 2), 2 and 3 are not. */
  const reviewText = (system: string, c: number) =>
    ({ msg: `why evict entries after one hour in module${c}`, "sys-good": `cache entries are evicted hourly in module${c}`, "sys-poor": `please add tests for module${c}` })[system] as string;

  beforeAll(async () => {
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    boss = await startQueue(dbUrl, { supervise: false });
    const annotator = await db.account.create({ data: { email: `tau-${Date.now()}@test.local`, name: "tau rater", role: "ANNOTATOR", passwordHash: "x" } });
    const study = await db.study.create({ data: { slug: `tau-study-${Date.now()}`, name: "tau", tasks: ["REVIEW_RATING"] } });
    studyId = study.id;
    for (let c = 0; c < 4; c++) {
      const change = await db.codeChange.create({
        data: {
          studyId,
          externalId: `change-${c}`,
          language: "python",
          diff: `--- a/f.py\n+++ b/f.py\n@@ -1 +1 @@\n-x = ${c}\n+x = ${c + 1}\n`,
          position: c,
          pseudoReferences: { create: claims.map((text, i) => ({ externalId: `p${i}`, text: `${text} in module${c}`, kind: "CLAIM" as const, source: "test", position: i })) },
          reviews: { create: ["msg", "sys-good", "sys-poor"].map((system, i) => ({ externalId: system, system, text: reviewText(system, c), isReference: system === "msg", position: i })) },
        },
        include: { reviews: true },
      });
      if (c >= 2) continue;
      for (const review of change.reviews.filter((r) => !r.isReference)) {
        await db.reviewRating.create({ data: { annotatorId: annotator.id, reviewId: review.id, scores: { conciseness: 3, comprehensiveness: 3, relevance: review.system === "sys-good" ? 5 : 2 } } });
      }
    }
  });
  afterAll(async () => {
    await boss.stop({ graceful: false, wait: true });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await db.study.delete({ where: { id: studyId } });
    await db.$disconnect();
  });
  beforeEach(() => {
    calls.length = 0;
    tokenCalls.length = 0;
  });

  /** τ by hand: each sentence (one per review here) of the chosen reviews with its best claim, averaged. */
  const tauByHand = (system: string, changes: number[]) => {
    const best = changes.map((c) => Math.max(...claims.map((p) => cosineSimilarity(pooledByHand(reviewText(system, c)), pooledByHand(`${p} in module${c}`)) as number)));
    return Number((best.reduce((s, v) => s + v, 0) / best.length).toFixed(4));
  };

  const run = async (request: Parameters<typeof startMetricRun>[3]) => {
    const context = createJobContext();
    const started = await startMetricRun(context, boss, studyId, request);
    const done = await drainMetricRun(boss, context, started.run.id);
    expect(done.status).toBe("DONE");
    const spec = runParams(done).specs.find((s) => s.kind === "crscore");
    if (spec?.kind !== "crscore") throw new Error("no crscore spec");
    return spec;
  };

  test("the best system is the one rated most relevant", () => {
    expect(bestRatedSystem([{ system: "b", score: 4 }, { system: "a", score: 3 }, { system: "a", score: 5 }, { system: "c", score: 1 }])).toBe("a");
    expect(bestRatedSystem([])).toBeNull();
  });

  test("mixedbread-ai/mxbai-embed-large-v1 on a server with token embeddings: τ = 0.7314 and §3.3's pooling, both in the signature", async () => {
    const spec = await run({ metrics: ["crscore"], embedding: { url, model: "mixedbread-ai/mxbai-embed-large-v1" } });
    expect(spec).toMatchObject({ tau: CRSCORE_DEFAULT_TAU, tauSource: "paper", pooling: "tokens-without-stopwords" });
    expect(spec.tauCalibration).toBeUndefined();
    expect(spec.signature).toBe("emb:mixedbread-ai/mxbai-embed-large-v1|pool:tokens-without-stopwords|split:crscore|refs:automatic|tau:0.7314|tau-source:paper|impl:1");
    expect(calls).toHaveLength(0);
    // The stored best matches are the cosines of the pooled vectors.
    const rel = await metricValuesForStudy(studyId, "crscore-rel", spec.signature, db);
    const review = await db.review.findFirstOrThrow({ where: { codeChange: { studyId, externalId: "change-3" }, system: "sys-good" } });
    const detail = rel?.details.get(review.id) as { reviewSentenceBest: number[] };
    expect(detail.reviewSentenceBest[0]).toBeCloseTo(tauByHand("sys-good", [3]), 4);
  });

  test("another model: τ from the best-rated system's sentences on the unannotated changes; τ_GT from the references on request", async () => {
    const spec = await run({ metrics: ["crscore"], embedding: { url, model: "other-model" } });
    expect(spec).toMatchObject({ tauSource: "best-system", tauCalibration: { system: "sys-good", items: "unannotated", reviews: 2, sentences: 2 }, pooling: "tokens-without-stopwords" });
    expect(spec.tau).toBe(tauByHand("sys-good", [2, 3]));
    expect(spec.signature).toContain(`|tau:${spec.tau.toFixed(4)}|tau-source:best-system|tau-system:sys-good|tau-items:unannotated|`);

    const gt = await run({ metrics: ["crscore"], embedding: { url, model: "other-model" }, tauCalibration: "gt" });
    expect(gt).toMatchObject({ tauSource: "gt", tau: tauByHand("msg", [2, 3]), tauCalibration: { system: null, items: "unannotated", reviews: 2 } });
    expect(gt.signature).toContain("|tau-source:gt|tau-items:unannotated|");
    // A named system; an unknown one is refused with the study's systems.
    expect((await run({ metrics: ["crscore"], embedding: { url, model: "other-model" }, tauCalibration: "best-system", tauSystem: "sys-poor" })).tau).toBe(tauByHand("sys-poor", [2, 3]));
    await expect(startMetricRun(createJobContext(), boss, studyId, { metrics: ["crscore"], embedding: { url, model: "other-model" }, tauSystem: "nope", tauCalibration: "best-system" })).rejects.toThrow(/no system "nope" in this study; its systems: sys-good, sys-poor/);
  });

  test("a server without token embeddings: whole-sentence vectors, labelled pool:sentence", async () => {
    const spec = await run({ metrics: ["crscore"], embedding: { url: url.replace("/v1", "/plain/v1"), model: "mxbai-embed-large" } });
    expect(spec).toMatchObject({ tauSource: "paper", pooling: "sentence" });
    expect(spec.signature).toMatch(/^emb:mxbai-embed-large\|pool:sentence\|/);
    expect(calls.length).toBeGreaterThan(0);
  });
});
