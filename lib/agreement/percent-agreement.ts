import { agreementComponents, unitCounts } from "./counts";
import { unpairedReason } from "./reasons";
import { asTable, type RatingsInput, type TableOptions } from "./table";
import type { AgreementResult, RatingValue } from "./types";

/**
 * Percent agreement: the mean, over items with at least two ratings, of the share of rater
 * pairs that agree, Σ_k r_ik(r_ik - 1)/(r_i(r_i - 1)) (Fleiss 1971 P_i; irrCAC `pa`,
 * metrics-spec §8). With two raters and complete data it is the share of identical ratings.
 */
export function percentAgreement(input: RatingsInput, options: TableOptions = {}): AgreementResult {
  const table = asTable(input, options);
  const c = agreementComponents(unitCounts(table), null);
  if (c.pa === null) return { value: null, reason: unpairedReason(table), n: 0 };
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
  ratings: { rater: string; value: RatingValue }[];
}

/**
 * Agreement item by item, for drilling down into disagreements: the share of agreeing rater
 * pairs (the per-item term of percent agreement and Fleiss' P_i), the spread of numeric
 * ratings, and who gave which rating. Items in first-seen order.
 */
export function perItemAgreement(input: RatingsInput, options: TableOptions = {}): ItemAgreement[] {
  const table = asTable(input, options);
  const c = agreementComponents(unitCounts(table), null);
  const numeric = table.scale.every((v) => typeof v === "number");
  return table.items.map((item, u) => {
    const ratings: ItemAgreement["ratings"] = [];
    for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) ratings.push({ rater: table.raters[table.rater[e]], value: table.scale[table.value[e]] });
    const values = ratings.map((r) => r.value as number);
    const range = numeric ? Math.max(...values) - Math.min(...values) : null;
    const n = ratings.length;
    return n < 2
      ? { item, n, agreement: null, reason: "fewer than two ratings", range, ratings }
      : { item, n, agreement: c.unitAgreement[u], range, ratings };
  });
}
