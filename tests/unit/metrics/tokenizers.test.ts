/**
 * Property tests of the one-scan tokenizers and the token-id n-gram paths against the multi-pass
 * definitions, written out here with regexes and string keys.
 */
import { describe, expect, test } from "vitest";
import {
  CODEREVIEWER_STOPWORDS,
  chrfFromStatistics,
  codeReviewerBleu,
  gradedReviewsBleu,
  mosesSmoothBleu,
  normalizeMteval11a,
  sentenceChrf,
  tokenize13a,
  wordpunctTokenize,
} from "@/lib/metrics";
import { mteval11aIds, splitPunctsMteval11aIds } from "@/lib/metrics/mteval";
import { IdBuffer, spanIds, startVocabulary, TokenSpans } from "@/lib/metrics/tokens";
import { seededRandom } from "@/lib/stats";

const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const pySplit = (text: string) => text.match(new RegExp(`[^${PY_SPACE}]+`, "g")) ?? [];
const pyStrip = (text: string) => text.replace(new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g"), "");
const splitPuncts = (text: string) => (text.match(new RegExp(`[\\p{L}\\p{N}_]+|[^${PY_SPACE}\\p{L}\\p{N}_]`, "gu")) ?? []).join(" ");

/** The four mteval regexes, one `re.sub` each, then `split()`. */
function fourPasses(padded: string): string[] {
  return pySplit(
    padded
      .replace(/([{-~[-`\x20-&(-+:-@/])/g, " $1 ")
      .replace(/([^0-9])([.,])/g, "$1 $2 ")
      .replace(/([.,])([^0-9])/g, " $1 $2")
      .replace(/([0-9])(-)/g, "$1 $2 "),
  );
}
const joinLines = (text: string) => text.replaceAll("<skipped>", "").replaceAll("-\n", "").replaceAll("\n", " ");
const mteval11a = (text: string) =>
  fourPasses(` ${joinLines(text).replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&amp;", "&")} `.toLowerCase());
const tokenizer13a = (text: string) =>
  fourPasses(` ${joinLines(text.replace(new RegExp(`[${PY_SPACE}]+$`), "")).replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">")} `);

const random = seededRandom(20261124);
/** Pieces that meet every rule: digits around periods, commas and dashes, mteval punctuation, entities, Unicode case and whitespace. */
const PIECES = [
  ..."0123456789.,.,--",
  ...'!"#$%&()*+/:;<=>?@[\\]^_`{|}~\'',
  ..."aZxΣσİß",
  " ", " ", "\t", "\n", "\u3000", "\xa0", "\x1c", "\x85",
  "é", "e\u0301", "👍", "𝐀", "“", "”", "٣", "_",
  "&amp;", "&lt;", "&gt;", "&quot;", "&amp;lt;", "<skipped>", "-\n", "3.14", "e.g.", "1,000", "a..b", "5-", "getName()", "my_var", " the ", "This", " is",
];
const randomText = (maxPieces: number) =>
  Array.from({ length: Math.floor(random() * maxPieces) }, () => PIECES[Math.floor(random() * PIECES.length)]).join("");
const TEXTS = Array.from({ length: 3000 }, () => randomText(24));

describe("one-scan mteval tokenizers equal the four regex passes", () => {
  test("mteval-v11a normalize (CodeReviewer, GradedReviews)", () => {
    for (const text of TEXTS) expect(normalizeMteval11a(text)).toEqual(mteval11a(text));
  });

  test("sacreBLEU 13a", () => {
    for (const text of TEXTS) expect(tokenize13a(text)).toEqual(tokenizer13a(text));
  });

  test("splitPuncts then normalize, on lowercased text, in one scan", () => {
    for (const text of TEXTS) {
      const lowercased = text.toLowerCase();
      startVocabulary();
      expect(Array.from(splitPunctsMteval11aIds(lowercased, new IdBuffer()))).toEqual(Array.from(mteval11aIds(splitPuncts(lowercased), new IdBuffer())));
    }
  });
});

describe("BLEU pipelines on token ids equal the string pipelines", () => {
  const pairs = Array.from({ length: 1500 }, (_, i) => [TEXTS[i], i % 7 === 0 ? TEXTS[i] : TEXTS[i + 1500]] as const);

  test("GradedReviews BLEU is mosesSmoothBleu of splitPuncts(strip(x).lower())", () => {
    const prepare = (text: string) => splitPuncts(pyStrip(text).toLowerCase());
    for (const [review, reference] of pairs) {
      expect(gradedReviewsBleu(review, reference)).toBe(mosesSmoothBleu([prepare(reference)], prepare(review)) * 100);
    }
  });

  test("CodeReviewer BLEU is mosesSmoothBleu of bleu_fromstr's preprocessing, with and without stopwords", () => {
    for (const removeStopwords of [false, true]) {
      const prepare = (text: string) =>
        splitPuncts(pyStrip(wordpunctTokenize(text).filter((t) => !removeStopwords || !CODEREVIEWER_STOPWORDS.has(t)).join(" ")).toLowerCase());
      for (const [review, reference] of pairs) {
        expect(codeReviewerBleu(review, reference, { removeStopwords })).toBe(mosesSmoothBleu([prepare(reference)], prepare(review)) * 100);
      }
    }
  });
});

describe("chrF on code points and word ids equals string-keyed n-gram counts", () => {
  const PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
  const words = (text: string) =>
    pySplit(text).flatMap((w) => {
      if (Array.from(w).length === 1) return [w];
      if (PUNCTUATION.has(w[w.length - 1])) return [w.slice(0, -1), w[w.length - 1]];
      if (PUNCTUATION.has(w[0])) return [w[0], w.slice(1)];
      return [w];
    });
  const counts = (items: readonly string[], n: number) => {
    const map = new Map<string, number>();
    for (let i = 0; i + n <= items.length; i++) {
      const key = JSON.stringify(items.slice(i, i + n));
      map.set(key, (map.get(key) ?? 0) + 1);
    }
    return map;
  };
  const stats = (hyp: readonly string[], ref: readonly string[], order: number) =>
    Array.from({ length: order }, (_, i) => {
      const [h, r] = [counts(hyp, i + 1), counts(ref, i + 1)];
      let matches = 0;
      for (const [key, c] of h) matches += Math.min(c, r.get(key) ?? 0);
      const nRef = Math.max(ref.length - i, 0);
      return [nRef > 0 ? Math.max(hyp.length - i, 0) : 0, nRef, matches];
    }).flat();
  const chrf = (hyp: string, ref: string, wordOrder: 0 | 2) => {
    const chars = (text: string) => Array.from(pySplit(text).join(""));
    return chrfFromStatistics([...stats(chars(hyp), chars(ref), 6), ...(wordOrder > 0 ? stats(words(hyp), words(ref), wordOrder) : [])]);
  };

  test("chrF and chrF++ on random texts with repeats, astral characters and Python-only whitespace", () => {
    for (let i = 0; i < 1500; i++) {
      const [hyp, ref] = [TEXTS[i], i % 5 === 0 ? TEXTS[i] + TEXTS[i] : TEXTS[i + 1500]];
      expect(sentenceChrf(hyp, [ref], 0)).toBe(chrf(hyp, ref, 0));
      expect(sentenceChrf(hyp, [ref], 2)).toBe(chrf(hyp, ref, 2));
    }
  });
});

describe("token ids", () => {
  test("equal tokens get equal ids and different ones different ids, across table growth", () => {
    const tokens = Array.from({ length: 20_000 }, () => randomText(3));
    const spans = new TokenSpans().reset(tokens.join(""));
    let at = 0;
    for (const token of tokens) spans.push(at, (at += token.length));
    startVocabulary();
    const ids = spanIds(spans, new IdBuffer());
    const first = new Map<string, number>();
    const seen = new Map<number, string>();
    tokens.forEach((token, k) => {
      expect(ids[k]).toBe(first.get(token) ?? ids[k]);
      first.set(token, ids[k]);
      expect(seen.get(ids[k]) ?? token).toBe(token);
      seen.set(ids[k], token);
    });
    expect(seen.size).toBe(first.size);
  });
});
