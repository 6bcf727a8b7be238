/** CRScore §3.3's sentence vectors from token embeddings: special tokens and stopword tokens left out, the rest averaged. */
import { describe, expect, test } from "vitest";
import { contentTokens, poolWithoutStopwords } from "@/lib/embeddings";
import { isCrscorePaperModel } from "@/lib/metrics";

const tok = (text: string, special = false) => ({ text, special });

describe("token pooling without stopwords", () => {
  test("special tokens and the tokens of stopwords are not content; word pieces take their word's verdict", () => {
    // "anything" is a stopword split in two pieces; "anyway" is one; "renaming" is not a stopword.
    const text = "Why rename anything here? Renaming";
    const tokens = [tok("[CLS]", true), tok("why"), tok("rename"), tok("any"), tok("##thing"), tok("here"), tok("?"), tok("renaming"), tok("[SEP]", true)];
    expect(contentTokens(text, tokens)).toEqual([false, false, true, false, false, false, true, true, false]);
  });

  test("the mean of the content tokens' vectors", () => {
    const text = "the cache is stale";
    const tokens = [tok("<s>", true), tok("Ġthe"), tok("Ġcache"), tok("Ġis"), tok("Ġstale"), tok("</s>", true)];
    const vectors = [[9, 9], [5, 5], [1, 2], [7, 7], [3, 0], [9, 9]];
    expect(poolWithoutStopwords(text, tokens, vectors)).toEqual([2, 1]);
  });

  test("a sentence of stopwords only keeps its non-special tokens; a count mismatch is refused", () => {
    const tokens = [tok("[CLS]", true), tok("why"), tok("not"), tok("[SEP]", true)];
    expect(poolWithoutStopwords("why not", tokens, [[0], [2], [4], [0]])).toEqual([3]);
    expect(() => poolWithoutStopwords("why not", tokens, [[0]])).toThrow(/4 tokens but 1 token vectors/);
  });
});

describe("the paper's embedding model", () => {
  test.each([
    ["mixedbread-ai/mxbai-embed-large-v1", true],
    ["mxbai-embed-large-v1", true],
    ["mxbai-embed-large", true],
    ["mxbai-embed-large:335m", true],
    ["MixedBread-AI/MXBAI-Embed-Large-V1", true],
    ["mxbai-embed-2d-large-v1", false],
    ["text-embedding-3-large", false],
    ["tfidf-offline-v2", false],
  ])("%s → %s", (name, expected) => {
    expect(isCrscorePaperModel(name)).toBe(expected);
  });
});
