import { oncePer } from "./once-per";
import type { AnswerTable } from "./table";

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
export const unitCounts: (table: AnswerTable) => UnitCounts = oncePer(countUnits);

function countUnits(table: AnswerTable): UnitCounts {
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
function countCategories(table: AnswerTable, start: Int32Array, category: Int32Array, count: Int32Array, total: Int32Array): number {
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
  const unitAgreement = unitAgreements(counts, weights);
  return { ...summedComponents(counts, unitAgreement, null), unitAgreement };
}

/** Per unit: its weighted share of agreeing rater pairs Σ_k r_k (r*_k - 1)/(r (r - 1)) (0 for units with fewer than 2 ratings). */
function unitAgreements(counts: UnitCounts, weights: readonly (readonly number[])[] | null): Float64Array {
  const units = counts.start.length - 1;
  const unitAgreement = new Float64Array(units);
  for (let u = 0; u < units; u++) {
    const from = counts.start[u];
    const to = counts.start[u + 1];
    const r = counts.total[u];
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
  }
  return unitAgreement;
}

/**
 * p_a, π, rated and paired units of agreementComponents over the units `units` (indices, in
 * the order they are summed; null: all units in order), given each unit's agreement. A
 * subset's components are the same sums, term for term, as those of the subset's own table.
 */
export function summedComponents(counts: UnitCounts, unitAgreement: Float64Array, units: Int32Array | null): Omit<AgreementComponents, "unitAgreement"> {
  const pi = new Float64Array(counts.categories);
  let paSum = 0;
  let paired = 0;
  let rated = 0;
  const length = units ? units.length : counts.total.length;
  for (let i = 0; i < length; i++) {
    const u = units ? units[i] : i;
    const r = counts.total[u];
    if (r === 0) continue;
    rated++;
    for (let e = counts.start[u]; e < counts.start[u + 1]; e++) pi[counts.category[e]] += counts.count[e] / r;
    if (r < 2) continue;
    paSum += unitAgreement[u];
    paired++;
  }
  for (let k = 0; k < pi.length; k++) pi[k] /= rated;
  return { pa: paired > 0 ? paSum / paired : null, pi, rated, paired };
}
