import type { NumericSample } from "./types";

/**
 * A sample of few distinct values (ratings, their means, scores on a grid): the distinct values
 * ascending, how often each occurs, and each observation's level (the index of its value).
 * Ranks, Spearman's sums and Kendall's pair counts then come from the counts, without a sort.
 */
export interface Levels {
  values: Float64Array;
  counts: Float64Array;
  codes: Uint16Array;
}

/** At most this many distinct values make levels; a sample with more is sorted instead. */
export const MAX_LEVELS = 256;
/** Slots of the hash table (a power of two, four times MAX_LEVELS so probes stay short). */
const SLOTS = 4 * MAX_LEVELS;

/**
 * The sample's levels, or null when it has more than `max` distinct values (found within the
 * first values of a continuous sample). One pass through an open-addressing table of the values
 * seen, probed from a hash of the value's 1/1024 grid position (equal values, -0 and 0 included,
 * hash alike). `codes`, as long as the values, receives the levels (the result's codes).
 */
export function fewLevels(values: NumericSample, max = MAX_LEVELS, codes: Uint16Array = new Uint16Array(values.length)): Levels | null {
  const slotValue = new Float64Array(SLOTS);
  const slotLevel = new Int32Array(SLOTS).fill(-1);
  const seen = new Float64Array(max);
  const distinct = collectLevels(values, slotValue, slotLevel, seen, codes, max);
  if (distinct < 0) return null;
  // Levels numbered as first seen, renumbered in ascending value order.
  const firstSeen = Array.from(seen.subarray(0, distinct).keys()).sort((a, b) => seen[a] - seen[b]);
  const renumber = new Uint16Array(distinct);
  firstSeen.forEach((level, rank) => (renumber[level] = rank));
  const counts = new Float64Array(distinct);
  recode(codes, renumber, counts);
  return { values: Float64Array.from(firstSeen, (level) => seen[level]), counts, codes };
}

/** Each value's level as first seen into codes; the number of levels, or -1 past `max`. */
function collectLevels(values: NumericSample, slotValue: Float64Array, slotLevel: Int32Array, seen: Float64Array, codes: Uint16Array, max: number): number {
  let distinct = 0;
  const mask = SLOTS - 1;
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    let slot = (Math.imul((v * 1024) | 0, 0x9e3779b1) >>> 22) & mask;
    for (;;) {
      const level = slotLevel[slot];
      if (level < 0) {
        if (distinct === max) return -1;
        slotValue[slot] = v;
        slotLevel[slot] = distinct;
        seen[distinct] = v;
        codes[k] = distinct++;
        break;
      }
      if (slotValue[slot] === v) {
        codes[k] = level;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return distinct;
}

function recode(codes: Uint16Array, renumber: Uint16Array, counts: Float64Array): void {
  for (let k = 0; k < codes.length; k++) {
    const level = renumber[codes[k]];
    codes[k] = level;
    counts[level]++;
  }
}
