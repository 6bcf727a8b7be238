/**
 * Normalised edit distance (metrics-spec 5): Levenshtein distance with unit costs divided by the
 * longer length, over Unicode code points or whitespace tokens. This is what CRScore's baseline
 * computes (`Levenshtein.distance(p, r) / max(len(p), len(r))`, scripts/run_ref_based_eval.py);
 * it is not the indel-based `Levenshtein.ratio` / rapidfuzz `ratio`, nor difflib's ratio.
 */
import { pySplit } from "./python-compat";

/** Unit of comparison: Unicode code points (Python `str`) or Python `str.split()` tokens. */
export type EditUnit = "char" | "token";

/** Wagner–Fischer Levenshtein distance (insert, delete, substitute all cost 1), two rows of memory. */
export function levenshtein<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  let previous = Int32Array.from({ length: short.length + 1 }, (_, j) => j);
  let current = new Int32Array(short.length + 1);
  for (let i = 1; i <= long.length; i++) {
    current[0] = i;
    const item = long[i - 1];
    for (let j = 1; j <= short.length; j++) {
      let best = previous[j - 1] + (item === short[j - 1] ? 0 : 1);
      if (previous[j] + 1 < best) best = previous[j] + 1;
      if (current[j - 1] + 1 < best) best = current[j - 1] + 1;
      current[j] = best;
    }
    [previous, current] = [current, previous];
  }
  return previous[short.length];
}

/** Code points as numbers: cheaper to compare than one-character strings, and one per astral character. */
function codePoints(text: string): Int32Array {
  const codes = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i) as number;
    if (code > 0xffff) i++;
    codes[n++] = code;
  }
  return codes.subarray(0, n);
}

function normalized<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 0 : levenshtein(a, b) / longest;
}

/** NED(a, b) = lev(a, b) / max(|a|, |b|) in [0, 1]; NED("", "") = 0. Lower is more similar; similarity is 1 − NED. */
export function normalizedEditDistance(a: string, b: string, unit: EditUnit = "char"): number {
  return unit === "char" ? normalized(codePoints(a), codePoints(b)) : normalized(pySplit(a), pySplit(b));
}

/**
 * Exact match, 1 or 0, after whitespace normalisation (`" ".join(x.split())` on both sides), so
 * line breaks and indentation do not count. The spec does not define EM; this is our choice.
 */
export function exactMatch(candidate: string, reference: string): 0 | 1 {
  return pySplit(candidate).join(" ") === pySplit(reference).join(" ") ? 1 : 0;
}
