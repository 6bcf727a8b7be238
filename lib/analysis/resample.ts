/** Bootstrap over items (units) for agreement coefficients, on the compressed rating table. */
import { type ItemResamples, type AnswerTable, SharedResamples } from "@/lib/agreement";
import { bootstrapCisPrepared } from "@/lib/stats";

/**
 * The table of the picked items (indices into table.items, repeats allowed), each keeping all
 * its ratings: one bootstrap resample of units. O(ratings of the picked items).
 */
export function resampleItems(table: AnswerTable, picks: ArrayLike<number>): AnswerTable {
  const { itemStart: start, rater: raterOf, value: valueOf } = table;
  const itemStart = new Int32Array(picks.length + 1);
  for (let i = 0; i < picks.length; i++) {
    const u = picks[i] | 0;
    itemStart[i + 1] = itemStart[i] + start[u + 1] - start[u];
  }
  const rater = new Int32Array(itemStart[picks.length]);
  const value = new Int32Array(itemStart[picks.length]);
  for (let i = 0, k = 0; i < picks.length; i++) {
    const u = picks[i] | 0;
    for (let e = start[u], end = start[u + 1]; e < end; e++, k++) {
      rater[k] = raterOf[e];
      value[k] = valueOf[e];
    }
  }
  const items = new Array<string>(picks.length);
  for (let i = 0; i < picks.length; i++) items[i] = table.items[picks[i] | 0];
  return { items, raters: table.raters, scale: table.scale, scaleDeclared: table.scaleDeclared, itemStart, rater, value };
}

export interface BootstrapSettings {
  /** Default 1000; 0 computes no CIs. */
  nResamples: number;
  /**
   * True when nResamples is the default: big studies then get fewer resamples (see
   * affordableResamples). An explicit nResamples is always honoured.
   */
  adaptive: boolean;
  /** Default 1. */
  seed: number;
  /** Default 0.95. */
  confidenceLevel: number;
}

export const DEFAULT_BOOTSTRAP: BootstrapSettings = { nResamples: 1000, adaptive: true, seed: 1, confidenceLevel: 0.95 };

/** The defaults, overridden by the given settings (an undefined setting keeps its default). */
export function bootstrapSettings(given: Partial<BootstrapSettings> = {}): BootstrapSettings {
  return {
    nResamples: given.nResamples ?? DEFAULT_BOOTSTRAP.nResamples,
    adaptive: given.nResamples === undefined,
    seed: given.seed ?? DEFAULT_BOOTSTRAP.seed,
    confidenceLevel: given.confidenceLevel ?? DEFAULT_BOOTSTRAP.confidenceLevel,
  };
}

/**
 * Work (elementary steps) one default CI may take, in the cost model of rebuilding every
 * resample (ratings × passes; about a second on this machine kind then). Resampled
 * coefficients and shared resample streams now take a small fraction of that; the model is
 * kept because the number of resamples, and so every seeded CI, depends on it.
 */
const WORK_BUDGET = 3e7;
/** Fewest resamples a default CI uses, whatever the study's size. */
const MIN_RESAMPLES = 200;

/**
 * Resamples for a CI whose statistic costs `cost` steps per resample (e.g. the number of
 * ratings): the requested number, or for default settings on a big study as many as fit the
 * work budget, but never fewer than 200. Depends only on the data's size, so the dashboard
 * and the CLI compute the same interval; every CI reports the number it used.
 */
export function affordableResamples(settings: BootstrapSettings, cost: number): number {
  if (!settings.adaptive) return settings.nResamples;
  return Math.min(settings.nResamples, Math.max(MIN_RESAMPLES, Math.floor(WORK_BUDGET / Math.max(cost, 1))));
}

export interface Interval {
  low: number | null;
  high: number | null;
  /** Resamples drawn. */
  nResamples: number;
  reason?: string;
}

/**
 * Percentile bootstrap CI of an agreement coefficient, resampling items with replacement
 * (all ratings of an item move together), seeded so the dashboard and the CLI agree. Builds
 * each resampled table (resampleItems); the report's coefficients use itemBootstrapCis with
 * their resampled forms instead, which give the same intervals.
 */
export function itemBootstrapCi(table: AnswerTable, coefficient: (t: AnswerTable) => number | null, settings: BootstrapSettings, cost: number = table.value.length): Interval {
  return itemBootstrapCis(table, [{ resampled: (r) => coefficient(resampleItems(table, r.picks)), cost }], settings)[0];
}

/** A coefficient of the loaded item resample and its cost per resample (see affordableResamples). */
export interface ItemStatistic {
  resampled: (resample: ItemResamples) => number | null;
  /** Default: the number of ratings. */
  cost?: number;
}

/**
 * Percentile bootstrap CIs of several coefficients of one table over the same seeded item
 * resamples, each drawn once and loaded once into an ItemResamples (so coefficients share its
 * sums): interval k is the one itemBootstrapCi gives for coefficient k with its own number of
 * resamples (affordableResamples of its cost).
 */
export function itemBootstrapCis(table: AnswerTable, statistics: readonly ItemStatistic[], settings: BootstrapSettings): Interval[] {
  return tablesBootstrapCis([{ table, statistics }], settings)[0];
}

/** A table and the coefficients wanted of its item resamples. */
export interface TableStatistics {
  table: AnswerTable;
  statistics: readonly ItemStatistic[];
}

/**
 * itemBootstrapCis of several tables over the same number of items (a task's questions): the
 * seeded stream of resamples depends only on that number, so every table gets the same picks,
 * drawn once and counted once (SharedResamples). Result g equals
 * itemBootstrapCis(groups[g].table, groups[g].statistics, settings).
 */
export function tablesBootstrapCis(groups: readonly TableStatistics[], settings: BootstrapSettings): Interval[][] {
  const n = groups[0].table.items.length;
  if (groups.some((g) => g.table.items.length !== n)) throw new RangeError("tables resampled together must have the same number of items");
  const items = Float64Array.from({ length: n }, (_, u) => u);
  const shared = new SharedResamples(groups.map((g) => g.table));
  const wanted = groups.flatMap((g, k) => g.statistics.map((s) => ({ resample: k, resampled: s.resampled, nResamples: affordableResamples(settings, s.cost ?? g.table.value.length) })));
  const results = bootstrapCisPrepared(
    [items],
    (picks) => shared.load(picks),
    wanted.map((w) => ({ statistic: (loaded: readonly ItemResamples[]) => w.resampled(loaded[w.resample]), nResamples: w.nResamples })),
    { seed: settings.seed, confidenceLevel: settings.confidenceLevel, method: "percentile" },
  );
  const intervals = results.map((r, k): Interval => ({ low: r.low, high: r.high, nResamples: wanted[k].nResamples, ...(r.reason === undefined ? {} : { reason: r.reason }) }));
  let next = 0;
  return groups.map((g) => intervals.slice(next, (next += g.statistics.length)));
}
