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
export function levenshtein<T>(a: readonly T[], b: readonly T[]): number {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  let previous = Int32Array.from({ length: short.length + 1 }, (_, j) => j);
  let current = new Int32Array(short.length + 1);
  for (let i = 1; i <= long.length; i++) {
    current[0] = i;
    const item = long[i - 1];
    for (let j = 1; j <= short.length; j++) {
      const substitute = previous[j - 1] + (item === short[j - 1] ? 0 : 1);
      current[j] = Math.min(substitute, previous[j] + 1, current[j - 1] + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[short.length];
}

function units(text: string, unit: EditUnit): string[] {
  return unit === "char" ? Array.from(text) : pySplit(text);
}

/** NED(a, b) = lev(a, b) / max(|a|, |b|) in [0, 1]; NED("", "") = 0. Lower is more similar; similarity is 1 − NED. */
export function normalizedEditDistance(a: string, b: string, unit: EditUnit = "char"): number {
  const ua = units(a, unit);
  const ub = units(b, unit);
  const longest = Math.max(ua.length, ub.length);
  return longest === 0 ? 0 : levenshtein(ua, ub) / longest;
}

/**
 * Exact match, 1 or 0, after whitespace normalisation (`" ".join(x.split())` on both sides), so
 * line breaks and indentation do not count. The spec does not define EM; this is our choice.
 */
export function exactMatch(candidate: string, reference: string): 0 | 1 {
  return pySplit(candidate).join(" ") === pySplit(reference).join(" ") ? 1 : 0;
}
