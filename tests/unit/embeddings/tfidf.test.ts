import { describe, expect, test } from "vitest";
import { createTfidfEmbedder, fitTfidf, resolveEmbeddingConfig, sparseCosine, tfidfWords, TFIDF_MODEL } from "@/lib/embeddings";

const corpus = [
  "The method getUserName returns null when the user is missing.",
  "getUserName may return null; callers should check it.",
  "Rename the variable to something more descriptive.",
  "Consider adding a unit test for the empty list case.",
];

describe("offline TF-IDF embedder", () => {
  test("words: alphanumeric runs, camelCase split, lower-cased", () => {
    expect(tfidfWords("getUserName(HTTPServer, id2)!")).toEqual(["get", "user", "name", "http", "server", "id", "2"]);
    expect(tfidfWords("¿?!")).toEqual([]);
  });

  test("vectors have unit norm and a text is most similar to itself", () => {
    const model = fitTfidf(corpus);
    for (const text of corpus) {
      const v = model.transform(text);
      expect(v.values.reduce((s, x) => s + x * x, 0)).toBeCloseTo(1, 12);
      expect(sparseCosine(v, v)).toBeCloseTo(1, 12);
    }
    const [a, b, c] = corpus.map((t) => model.transform(t));
    expect(sparseCosine(a, b) as number).toBeGreaterThan(sparseCosine(a, c) as number);
  });

  test("deterministic: the corpus order does not change similarities or the fingerprint", async () => {
    const m1 = fitTfidf(corpus);
    const m2 = fitTfidf([...corpus].reverse().concat(corpus[0]));
    expect(m2.fingerprint).toBe(m1.fingerprint);
    expect(m2.documents).toBe(4);
    const s1 = await createTfidfEmbedder(m1).embed(corpus);
    const s2 = await createTfidfEmbedder(m2).embed(corpus);
    expect(s2.similarity(corpus[0], corpus[1])).toBeCloseTo(s1.similarity(corpus[0], corpus[1]) as number, 14);
  });

  test("a text without letters or digits is the zero vector: similarity undefined, not 0", async () => {
    const embedder = createTfidfEmbedder(fitTfidf(corpus));
    expect(embedder.model).toBe(TFIDF_MODEL);
    expect(embedder.offline).toBe(true);
    const set = await embedder.embed(["...", corpus[0]]);
    expect(set.similarity("...", corpus[0])).toBeNull();
    expect(() => set.similarity("never embedded", corpus[0])).toThrow(/not embedded/);
  });

  test("configuration: offline without a URL, the endpoint with one (model required)", () => {
    expect(resolveEmbeddingConfig({}, {})).toEqual({ kind: "offline", model: TFIDF_MODEL });
    expect(resolveEmbeddingConfig({}, { EMBEDDINGS_URL: "http://x/v1", EMBEDDINGS_MODEL: "m", EMBEDDINGS_API_KEY: "k" })).toEqual({ kind: "http", url: "http://x/v1", model: "m", apiKey: "k" });
    expect(() => resolveEmbeddingConfig({ url: "http://x/v1" }, {})).toThrow(/EMBEDDINGS_MODEL/);
  });
});
