import type { Rating, AnswerValue } from "@/lib/agreement";
import type { Random } from "@/lib/stats";

/**
 * Ragged ratings for property tests: each rater rates an item with probability `keep`, at the
 * item's latent category or, with probability `shiftRate`, one category off (ties, missing
 * ratings and items with one rating or none).
 */
export function raggedRatings(random: Random, items: number, raters: number, values: readonly AnswerValue[], keep: number, shiftRate: number): Rating[] {
  const out: Rating[] = [];
  for (let i = 0; i < items; i++) {
    const latent = Math.floor(random() * values.length);
    for (let r = 0; r < raters; r++) {
      if (random() >= keep) continue;
      const shift = random() < shiftRate ? (random() < 0.5 ? -1 : 1) : 0;
      out.push({ item: `i${i}`, rater: `r${r}`, value: values[Math.min(values.length - 1, Math.max(0, latent + shift))] });
    }
  }
  return out;
}
