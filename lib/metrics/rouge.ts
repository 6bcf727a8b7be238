/**
 * ROUGE-L as Google's rouge-score computes it (`google-research/google-research`
 * rouge/rouge_scorer.py@61ce9f0, rouge/tokenize.py):
 * `RougeScorer(['rougeL'], use_stemmer).score(target, prediction)` — the target comes first.
 */
import { harmonicMean } from "./fscore";
import { porterStem } from "./porter";

// tokenize.py: lowercase, then only runs of ASCII [a-z0-9] survive (`café` → `caf`, `aren't` → `aren`, `t`).
const TOKEN = /[a-z0-9]+/g;
const VALID_TOKEN = /^[a-z0-9]+$/;

/** rouge-score tokenizer; with the stemmer, tokens longer than 3 characters go through NLTK's Porter stemmer. */
export function rougeTokenize(text: string, useStemmer: boolean): string[] {
  const tokens = text.toLowerCase().match(TOKEN) ?? [];
  if (!useStemmer) return tokens;
  return tokens.map((t) => (t.length > 3 ? porterStem(t) : t)).filter((t) => VALID_TOKEN.test(t));
}

/** Length of the longest common subsequence of two token sequences (`_lcs_table(...)[-1][-1]`), in O(min) memory. */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  let previous = new Int32Array(short.length + 1);
  let current = new Int32Array(short.length + 1);
  for (let i = 1; i <= long.length; i++) {
    const token = long[i - 1];
    for (let j = 1; j <= short.length; j++) {
      current[j] = token === short[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
    }
    [previous, current] = [current, previous];
  }
  return previous[short.length];
}

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

/**
 * `_score_lcs`: P = LCS/|prediction|, R = LCS/|target|, F = 2PR/(P+R); all 0 when either side
 * has no tokens. F is symmetric in its arguments, P and R swap.
 */
export function rougeL(target: string, prediction: string, options: { useStemmer: boolean }): RougeScore {
  const targetTokens = rougeTokenize(target, options.useStemmer);
  const predictionTokens = rougeTokenize(prediction, options.useStemmer);
  if (targetTokens.length === 0 || predictionTokens.length === 0) return { precision: 0, recall: 0, fmeasure: 0 };
  const lcs = lcsLength(targetTokens, predictionTokens);
  const precision = lcs / predictionTokens.length;
  const recall = lcs / targetTokens.length;
  return { precision, recall, fmeasure: harmonicMean(precision, recall) };
}
