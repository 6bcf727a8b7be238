/**
 * Normalised edit distance: Levenshtein distance with unit costs divided by the
 * longer length, over Unicode code points or whitespace tokens. This is what CRScore's baseline
 * computes (`Levenshtein.distance(p, r) / max(len(p), len(r))`, scripts/run_ref_based_eval.py);
 * it is not the indel-based `Levenshtein.ratio` / rapidfuzz `ratio`, nor difflib's ratio.
 */
import { codePoints, pySplit } from "./python-compat";

/** Unit of comparison: Unicode code points (Python `str`) or Python `str.split()` tokens. */
export type EditUnit = "char" | "token";

/** Wagner–Fischer Levenshtein distance (insert, delete, substitute all cost 1), one row of memory. */
export function levenshtein<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  const m = short.length;
  const row = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) row[j] = j;
  for (let i = 1; i <= long.length; i++) {
    const item = long[i - 1];
    let diagonal = row[0]; // row[i-1][j-1]
    let left = i; // row[i][j-1]
    row[0] = i;
    for (let j = 1; j <= m; j++) {
      const up = row[j];
      let best = diagonal + (item === short[j - 1] ? 0 : 1);
      if (up + 1 < best) best = up + 1;
      if (left + 1 < best) best = left + 1;
      row[j] = best;
      diagonal = up;
      left = best;
    }
  }
  return row[m];
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
