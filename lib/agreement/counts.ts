import { oncePer } from "./once-per";
import type { RatingTable } from "./table";

/**
 * Per-unit category counts r_ik in sparse form: for unit u, the categories present are
 * category[start[u] .. start[u+1]-1] with counts count[…]. Every coefficient that only
 * depends on how many raters chose each category (Fleiss, Gwet, percent agreement,
 * Krippendorff's coincidences) reads this, so its cost is O(ratings) whatever the design.
 */
export interface UnitCounts {
  /** Number of categories q (the scale length). */
  categories: number;
  start: Int32Array;
  category: Int32Array;
  count: Int32Array;
  /** Per unit: its number of ratings r_u = Σ_k r_uk. */
  total: Int32Array;
}

/**
 * The table's UnitCounts, counted once per table: a report reads them for percent agreement,
 * Fleiss, Gwet, both alphas and the per-item agreement of the same table.
 */
export const unitCounts: (table: RatingTable) => UnitCounts = oncePer(countUnits);

function countUnits(table: RatingTable): UnitCounts {
  const units = table.items.length;
  const start = new Int32Array(units + 1);
  // At most one entry per rating, so the rating count bounds the buffers.
  const category = new Int32Array(table.value.length);
  const count = new Int32Array(table.value.length);
  const total = new Int32Array(units);
  // The loop in its own function: code after a long loop in the same function would run
  // without type feedback once V8 compiles the loop while it runs, and deoptimise.
  const next = countCategories(table, start, category, count, total);
  return { categories: table.scale.length, start, category: category.subarray(0, next), count: count.subarray(0, next), total };
}

/** Fills unitCounts' arrays; returns the number of (unit, category) entries. */
function countCategories(table: RatingTable, start: Int32Array, category: Int32Array, count: Int32Array, total: Int32Array): number {
  const scratch = new Int32Array(table.scale.length);
  let next = 0;
  for (let u = 0; u < total.length; u++) {
    total[u] = table.itemStart[u + 1] - table.itemStart[u];
    for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) scratch[table.value[e]]++;
    for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) {
      const v = table.value[e];
      if (scratch[v] === 0) continue;
      category[next] = v;
      count[next++] = scratch[v];
      scratch[v] = 0;
    }
    start[u + 1] = next;
  }
  return next;
}

/**
 * UnitCounts from a units × categories count table (statsmodels `fleiss_kappa` input, the
 * output of `aggregate_raters`). Counts must be non-negative integers.
 */
export function unitCountsFromTable(table: readonly (readonly number[])[]): UnitCounts {
  const categories = table[0]?.length ?? 0;
  const start = new Int32Array(table.length + 1);
  const total = new Int32Array(table.length);
  const category: number[] = [];
  const count: number[] = [];
  table.forEach((row, u) => {
    if (row.length !== categories) throw new RangeError(`row ${u} has ${row.length} columns, expected ${categories}`);
    row.forEach((c, k) => {
      if (!Number.isInteger(c) || c < 0) throw new RangeError(`count at row ${u}, column ${k} is not a non-negative integer: ${c}`);
      if (c === 0) return;
      category.push(k);
      count.push(c);
      total[u] += c;
    });
    start[u + 1] = category.length;
  });
  return { categories, start, category: Int32Array.from(category), count: Int32Array.from(count), total };
}

/**
 * The building blocks of Fleiss' and Gwet's coefficients (Gwet 2014; irrCAC `raw.py`):
 * - pa: mean over units with r_i >= 2 raters of Σ_k r_ik (r*_ik - 1) / (r_i (r_i - 1)), where
 *   r*_ik = Σ_l w_kl r_il (weighted share of agreeing rater pairs; percent agreement when unweighted);
 * - pi: category prevalences π_k = mean over units with r_i >= 1 of r_ik / r_i
 *   (all-zero rows of a count table are skipped, as irrCAC drops unrated subjects).
 */
export interface AgreementComponents {
  pa: number | null;
  pi: Float64Array;
  /** Units with at least one rating. */
  rated: number;
  /** Units with at least two ratings. */
  paired: number;
  /** Per unit: its weighted share of agreeing rater pairs (0 for units with fewer than 2 ratings). */
  unitAgreement: Float64Array;
}

const unweightedComponents = oncePer((counts: UnitCounts) => componentsOf(counts, null));

/** The components of `counts` with `weights` (null: unweighted, computed once per counts, as percent agreement, Fleiss and the per-item agreement all read them). */
export function agreementComponents(counts: UnitCounts, weights: readonly (readonly number[])[] | null): AgreementComponents {
  return weights ? componentsOf(counts, weights) : unweightedComponents(counts);
}

function componentsOf(counts: UnitCounts, weights: readonly (readonly number[])[] | null): AgreementComponents {
  const units = counts.start.length - 1;
  const pi = new Float64Array(counts.categories);
  const unitAgreement = new Float64Array(units);
  let paSum = 0;
  let paired = 0;
  for (let u = 0; u < units; u++) {
    const from = counts.start[u];
    const to = counts.start[u + 1];
    const r = counts.total[u];
    if (r === 0) continue;
    for (let e = from; e < to; e++) pi[counts.category[e]] += counts.count[e] / r;
    if (r < 2) continue;
    let agree = 0;
    for (let e = from; e < to; e++) {
      const k = counts.category[e];
      let weighted = 0;
      if (weights) for (let f = from; f < to; f++) weighted += weights[k][counts.category[f]] * counts.count[f];
      else weighted = counts.count[e];
      agree += counts.count[e] * (weighted - 1);
    }
    unitAgreement[u] = agree / (r * (r - 1));
    paSum += unitAgreement[u];
    paired++;
  }
  const rated = counts.total.reduce((n, r) => n + (r > 0 ? 1 : 0), 0);
  for (let k = 0; k < pi.length; k++) pi[k] /= rated;
  return { pa: paired > 0 ? paSum / paired : null, pi, rated, paired, unitAgreement };
}
