/**
 * Reproducible shuffles for assignment order and per-annotator review order. A seed is derived
 * from any list of parts (study seed, account id, item id, purpose) so the same inputs always give
 * the same order, and different annotators get independent orders.
 */
import { type Random, seededRandom } from "@/lib/stats/random";

/** 32-bit FNV-1a over the parts joined with a separator that cannot occur in ids. */
export function hashSeed(...parts: readonly (string | number)[]): number {
  let hash = 0x811c9dc5;
  const text = parts.map(String).join("\u0000");
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Fisher-Yates shuffle of a copy of `items`, drawing from `random`. */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Fisher-Yates shuffle of a copy of `items` driven by the seeded xoshiro128** stream. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  return shuffled(items, seededRandom(seed));
}

/** Labels for anonymised reviews: A, B, ..., Z, AA, AB, ... */
export function letterLabel(index: number): string {
  let label = "";
  let n = index;
  do {
    label = String.fromCharCode(65 + (n % 26)) + label;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return label;
}
