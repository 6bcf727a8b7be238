import { describe, expect, test } from "vitest";
import { createTfidfEmbedder, fitTfidf, resolveEmbeddingConfig, sparseCosine, tfidfWords, TFIDF_MODEL } from "@/lib/embeddings";
import { seededRandom } from "@/lib/stats";

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

  test("words as the regular expressions split them, on random mixes of letters, digits and other characters", () => {
    const random = seededRandom(7);
    const alphabet = "aBzZ09 _.-HTTPServeréü\n";
    for (let t = 0; t < 2000; t++) {
      const text = Array.from({ length: Math.floor(random() * 30) }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
      expect(tfidfWords(text), JSON.stringify(text)).toEqual(definitionWords(text));
    }
  });

  test("vectors equal the definition computed on the features' texts, to the last bit", () => {
    const random = seededRandom(11);
    const vocabulary = "the a an it of ab abc abcd abcde getUserName HTTPServer URLs x86 id2 i18n 2024 null isEmpty ünïcode foo_bar a.b() XMLHttpRequest".split(" ");
    const sentence = (length: number) => Array.from({ length }, () => vocabulary[Math.floor(random() * vocabulary.length)] + (random() < 0.3 ? String(Math.floor(random() * 500)) : "")).join(random() < 0.5 ? " " : ", ");
    // Enough distinct words and bigrams to outgrow the model's first tables, and one text of 400 words.
    const fitted = [...corpus, ...Array.from({ length: 600 }, () => sentence(1 + Math.floor(random() * 20))), sentence(400), "", "...", corpus[0]];
    const model = fitTfidf(fitted);
    const definition = definitionModel(fitted);
    for (const text of [...fitted, "never seen zzqx words", "getUserName is null", "abc xyz", "¿?"]) {
      const v = model.transform(text);
      const expected = definition(text);
      expect([...v.indices], text).toEqual(expected.indices);
      expect([...v.values], text).toEqual(expected.values);
    }
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

  test("deterministic: the corpus order changes neither the fingerprint nor any vector or similarity, to the last bit", async () => {
    const random = seededRandom(5);
    const words = "cache entry evicted hour stale reload getUserName null check index loop retry lock".split(" ");
    const texts = Array.from({ length: 300 }, () => Array.from({ length: 3 + Math.floor(random() * 12) }, () => words[Math.floor(random() * words.length)]).join(" "));
    const shuffled = texts.map((text) => ({ text, key: random() })).sort((a, b) => a.key - b.key).map((t) => t.text);
    const m1 = fitTfidf(texts);
    const m2 = fitTfidf([...shuffled, texts[0]]);
    expect(m2.fingerprint).toBe(m1.fingerprint);
    expect(m2.documents).toBe(m1.documents);
    for (const text of texts.slice(0, 50)) expect(m2.transform(text)).toEqual(m1.transform(text));
    const s1 = await createTfidfEmbedder(m1).embed(texts);
    const s2 = await createTfidfEmbedder(m2).embed(texts);
    for (let i = 1; i < texts.length; i++) expect(s2.similarity(texts[0], texts[i])).toBe(s1.similarity(texts[0], texts[i]));
  });

  test("the embedder's similarities are sparseCosine's to the last bit, asked row by row or in any order, kept or not", async () => {
    const random = seededRandom(5);
    const words = "get user name null check list empty rename variable test case method returns HTTPServer id2".split(" ");
    const texts = Array.from({ length: 60 }, (_, i) => (i % 13 === 0 ? "..." : Array.from({ length: 1 + Math.floor(random() * 12) }, () => words[Math.floor(random() * words.length)]).join(" ")));
    const model = fitTfidf([...corpus, ...texts.slice(0, 40)]);
    const expected = (a: string, b: string) => sparseCosine(model.transform(a), model.transform(b));
    const embedder = createTfidfEmbedder(model);
    const kept = await embedder.embed(texts.slice(0, 30), { keep: true });
    const all = await embedder.embed(texts);
    // CRScore's order (each row against every column), then pairs at random.
    const pairs = texts.flatMap((a) => texts.slice(40).map((b) => [a, b] as const));
    for (let k = 0; k < 500; k++) pairs.push([texts[Math.floor(random() * texts.length)], texts[Math.floor(random() * texts.length)]]);
    for (const [a, b] of pairs) expect(all.similarity(a, b), `${a} | ${b}`).toBe(expected(a, b));
    for (const [a, b] of pairs.filter(([a, b]) => texts.indexOf(a) < 30 && texts.indexOf(b) < 30)) expect(kept.similarity(a, b)).toBe(expected(a, b));
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

/** tfidfWords by its definition: within runs of ASCII letters and digits, capitals not followed by a lower-case letter, a capital and its lower-case letters, or digits. */
function definitionWords(text: string): string[] {
  return (text.match(/[A-Za-z0-9]+/g) ?? []).flatMap((run) => run.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []).map((w) => w.toLowerCase());
}

/**
 * TF-IDF by TFIDF_SETTINGS on the features' texts: word unigrams and bigrams, character 3-5-grams
 * of each space-padded word; vocabularies in first-seen order over the distinct texts sorted; sublinear tf times smooth idf, each
 * block L2-normalised (summed in first-occurrence order), both scaled by 1/sqrt(2) when both are
 * present; indices ascending, the character block after the word block.
 */
function definitionModel(corpus: readonly string[]): (text: string) => { indices: number[]; values: number[] } {
  const wordFeatures = (words: string[]) => [...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)];
  const charFeatures = (words: string[]) =>
    words.flatMap((word) => {
      const padded = ` ${word} `;
      const grams: string[] = [];
      for (let n = 3; n <= 5; n++) {
        for (let i = 0; i + n <= padded.length; i++) grams.push(padded.slice(i, i + n));
        if (padded.length === n) break;
      }
      return grams;
    });
  const texts = [...new Set(corpus)].sort();
  const blocks = [wordFeatures, charFeatures].map((features) => {
    const index = new Map<string, number>();
    const df: number[] = [];
    for (const text of texts) {
      for (const feature of new Set(features(definitionWords(text)))) {
        if (!index.has(feature)) index.set(feature, df.push(0) - 1);
        df[index.get(feature) as number]++;
      }
    }
    return { features, index, idf: df.map((d) => Math.log((1 + texts.length) / (1 + d)) + 1) };
  });
  return (text) => {
    const weighed = blocks.map(({ features, index, idf }, b) => {
      const offset = b === 0 ? 0 : blocks[0].idf.length;
      const tf = new Map<number, number>();
      for (const feature of features(definitionWords(text))) {
        const i = index.get(feature);
        if (i !== undefined) tf.set(i, (tf.get(i) ?? 0) + 1);
      }
      const weights = [...tf].map(([i, count]) => [i, (1 + Math.log(count)) * idf[i]] as const);
      const norm = Math.sqrt(weights.reduce((sum, [, w]) => sum + w * w, 0));
      return weights.map(([i, w]) => [i + offset, w / norm] as const);
    });
    const scale = weighed.every((block) => block.length > 0) ? Math.SQRT1_2 : 1;
    const entries = weighed.flat().sort((x, y) => x[0] - y[0]);
    return { indices: entries.map((e) => e[0]), values: entries.map((e) => e[1] * scale) };
  };
}
