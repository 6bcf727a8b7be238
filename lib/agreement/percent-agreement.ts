import { type AgreementComponents, agreementComponents, unitCounts } from "./counts";
import { unpairedReason } from "./reasons";
import { asTable, type AnswersInput, type AnswerTable, type TableOptions } from "./table";
import type { AgreementResult, AnswerValue } from "./types";

/**
 * Percent agreement: the mean, over items with at least two ratings, of the share of rater
 * pairs that agree, Σ_k r_ik(r_ik - 1)/(r_i(r_i - 1)) (Fleiss 1971 P_i; irrCAC `pa`).
 * With two raters and complete data it is the share of identical ratings.
 */
export function percentAgreement(input: AnswersInput, options: TableOptions = {}): AgreementResult {
  const table = asTable(input, options);
  return percentFromComponents(agreementComponents(unitCounts(table), null), () => unpairedReason(table));
}

/** Percent agreement from the unweighted components p_a (see agreementComponents). */
export function percentFromComponents(c: Pick<AgreementComponents, "pa" | "paired">, noPairsReason: () => string): AgreementResult {
  if (c.pa === null) return { value: null, reason: noPairsReason(), n: 0 };
  return { value: c.pa, n: c.paired };
}

export interface ItemAgreement {
  item: string;
  /** Number of ratings of the item. */
  n: number;
  /** Share of agreeing rater pairs on this item; null with fewer than two ratings. */
  agreement: number | null;
  reason?: string;
  /** Highest minus lowest rating on numeric scales (size of the disagreement); null for labels. */
  range: number | null;
  ratings: { rater: string; value: AnswerValue }[];
}

/**
 * Agreement item by item, for drilling down into disagreements: the share of agreeing rater
 * pairs (the per-item term of percent agreement and Fleiss' P_i), the spread of numeric
 * ratings, and who gave which rating. Items in first-seen order.
 */
export function perItemAgreement(input: AnswersInput, options: TableOptions = {}): ItemAgreement[] {
  const table = asTable(input, options);
  const { unitAgreement } = agreementComponents(unitCounts(table), null);
  return table.items.map((_, u) => itemAgreement(table, unitAgreement, u));
}

/** perItemAgreement's entry for item u. */
function itemAgreement(table: AnswerTable, unitAgreement: ArrayLike<number>, u: number): ItemAgreement {
  const item = table.items[u];
  const ratings: ItemAgreement["ratings"] = [];
  for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) ratings.push({ rater: table.raters[table.rater[e]], value: table.scale[table.value[e]] });
  const range = itemRange(table, u);
  const n = ratings.length;
  return n < 2 ? { item, n, agreement: null, reason: "fewer than two ratings", range, ratings } : { item, n, agreement: unitAgreement[u], range, ratings };
}

/** Highest minus lowest rating of item u on a numeric scale; null for labels. */
function itemRange(table: AnswerTable, u: number): number | null {
  if (!table.scale.every((v) => typeof v === "number")) return null;
  let low = Infinity;
  let high = -Infinity;
  for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) {
    const v = table.scale[table.value[e]] as number;
    low = Math.min(low, v);
    high = Math.max(high, v);
  }
  return high - low;
}

/**
 * The `count` items with the least agreement below 1, then the widest range (0 for labels),
 * then the lowest `order` (an item's rank, e.g. its study order; ties keep table order): the first
 * `count` of perItemAgreement's entries sorted so, found by keeping the best `count` in one
 * pass instead of building and sorting an entry per item.
 */
export function leastAgreement(table: AnswerTable, count: number, order: ArrayLike<number>): ItemAgreement[] {
  const { unitAgreement } = agreementComponents(unitCounts(table), null);
  const numeric = table.scale.every((v) => typeof v === "number");
  const range = (u: number) => (numeric ? (itemRange(table, u) as number) : 0);
  const before = (u: number, w: number) => unitAgreement[u] - unitAgreement[w] || range(w) - range(u) || order[u] - order[w];
  const kept: number[] = [];
  for (let u = 0; u < table.items.length && count > 0; u++) {
    if (table.itemStart[u + 1] - table.itemStart[u] < 2 || !(unitAgreement[u] < 1)) continue;
    if (kept.length === count && before(u, kept[count - 1]) >= 0) continue;
    let at = Math.min(kept.length, count - 1);
    kept[at] = u;
    while (at > 0 && before(kept[at], kept[at - 1]) < 0) {
      [kept[at - 1], kept[at]] = [kept[at], kept[at - 1]];
      at--;
    }
  }
  return kept.map((u) => itemAgreement(table, unitAgreement, u));
}
