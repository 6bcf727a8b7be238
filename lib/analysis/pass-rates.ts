/**
 * c-CRAB's test-based scores of review systems (§4.3.2, Table 5, Figures 5 and 7). Each
 * benchmark instance i (a pull request) has validated tests T_i, each derived from a human
 * review comment; a system's review guides a coding agent, and each test then passes or not.
 * - s_i = |{t ∈ T_i : PASS}| / |T_i| per instance;
 * - the micro pass rate over tests, Σ passed / Σ |T_i| (Table 5's "Overall": 75 of 234 tests
 *   for the best system), and the macro pass rate, the mean of s_i: they differ when instances
 *   hold different numbers of tests, so both are named;
 * - the overlap of passed tests across systems (Figure 5): every combination's count, the union;
 * - pass rates per group of tests: the category of the human comment (Figure 7), or Table 5's
 *   behavioral and structural tests.
 * Denominators are the benchmark's tests: a test without an outcome of a system counts as not
 * passed, and is counted as `missing`. The human reviewers pass every test by construction
 * (§4.2.4 keeps only instances the agent resolves from the human review), so their row is
 * built, not read.
 */
import { wilsonInterval } from "@/lib/stats/proportion";
import { bootstrapCis } from "@/lib/stats";
import { HUMAN_SYSTEM, inTableOrder } from "./comment-systems";
import { DEFAULT_BOOTSTRAP, type BootstrapSettings } from "./resample";

/** A validated test of a benchmark instance: one element of T_i. */
export interface BenchmarkTest {
  testId: string;
  /** The benchmark instance (pull request) the test belongs to. */
  instance: string;
}

/** Whether a system's revised patch passed a test. */
export interface TestOutcome {
  system: string;
  testId: string;
  passed: boolean;
}

/** A rate with its CI; `value` null (and `reason`) when undefined, `ci` null (and `reason`) when the CI is. */
export interface Rate {
  value: number | null;
  ci: [number, number] | null;
  reason?: string;
}

export interface PassRateRow {
  system: string;
  human: boolean;
  instances: number;
  tests: number;
  passed: number;
  /** Tests without an outcome of the system, counted as not passed. */
  missing: number;
  /** Σ passed / Σ |T_i|, with a bootstrap CI over instances. */
  microPassRate: Rate;
  /** The mean of s_i over instances, with a bootstrap CI over instances. */
  macroPassRate: Rate;
}

export interface RateOptions {
  bootstrap?: BootstrapSettings;
  /** Explicit resamples of the clusters (instances in `instanceOrder`), instead of the seeded generator. */
  resampleIndices?: readonly (readonly number[])[];
}

export interface PassRateOptions extends RateOptions {
  /** Add the human reviewers' row (every test passed). Default true. */
  humanReviewers?: boolean;
}

/** The instances in the order the bootstrap resamples them: by id. */
export function instanceOrder(tests: readonly BenchmarkTest[]): string[] {
  return [...new Set(tests.map((t) => t.instance))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Each system's passed test ids, after checking that outcomes name known tests, once each. */
function passedBySystem(tests: readonly BenchmarkTest[], outcomes: readonly TestOutcome[]): { passed: Map<string, Set<string>>; given: Map<string, number> } {
  const known = new Set<string>();
  for (const t of tests) {
    if (known.has(t.testId)) throw new RangeError(`test "${t.testId}" is listed twice`);
    known.add(t.testId);
  }
  const passed = new Map<string, Set<string>>();
  const seen = new Set<string>();
  const given = new Map<string, number>();
  for (const o of outcomes) {
    if (o.system === HUMAN_SYSTEM) throw new RangeError(`an outcome of system "${HUMAN_SYSTEM}": the human reviewers pass every test by construction`);
    if (!known.has(o.testId)) throw new RangeError(`system "${o.system}" has an outcome of test "${o.testId}", which is not a test of the benchmark`);
    const key = `${o.system}\u0000${o.testId}`;
    if (seen.has(key)) throw new RangeError(`system "${o.system}" has two outcomes of test "${o.testId}"`);
    seen.add(key);
    given.set(o.system, (given.get(o.system) ?? 0) + 1);
    if (!passed.has(o.system)) passed.set(o.system, new Set());
    if (o.passed) passed.get(o.system)!.add(o.testId);
  }
  return { passed, given };
}

/** s_i per instance, in `instanceOrder`: the share of the instance's tests in `passed`. */
export function instanceScores(tests: readonly BenchmarkTest[], passed: ReadonlySet<string>): { instance: string; tests: number; passed: number; score: number }[] {
  const counts = new Map(instanceOrder(tests).map((i) => [i, { tests: 0, passed: 0 }]));
  for (const t of tests) {
    const c = counts.get(t.instance)!;
    c.tests++;
    if (passed.has(t.testId)) c.passed++;
  }
  return [...counts].map(([instance, c]) => ({ instance, ...c, score: c.passed / c.tests }));
}

const sum = (x: Float64Array) => x.reduce((a, v) => a + v, 0);

/**
 * Two rates of counts kept per cluster (an instance's passed and total tests, a pull request's
 * matched and total comments): the micro rate Σ numerators / Σ denominators and the macro mean
 * of the clusters' rates, with bootstrap CIs that resample clusters (paired: each cluster keeps
 * its numerator and denominator). Every denominator must be positive; without clusters both
 * rates are undefined for the reason `whyNone`.
 */
export function clusteredRates(numerators: readonly number[], denominators: readonly number[], whyNone: string, options: RateOptions = {}): { micro: Rate; macro: Rate } {
  if (numerators.length === 0) {
    const none: Rate = { value: null, ci: null, reason: whyNone };
    return { micro: none, macro: none };
  }
  const settings = options.bootstrap ?? DEFAULT_BOOTSTRAP;
  const micro = numerators.reduce((a, v) => a + v, 0) / denominators.reduce((a, v) => a + v, 0);
  const macro = numerators.reduce((a, v, i) => a + v / denominators[i], 0) / numerators.length;
  if (settings.nResamples === 0 && !options.resampleIndices) {
    const reason = "no resamples were asked for";
    return { micro: { value: micro, ci: null, reason }, macro: { value: macro, ci: null, reason } };
  }
  const [microCi, macroCi] = bootstrapCis(
    [numerators, denominators],
    [{ statistic: (p, n) => sum(p) / sum(n) }, { statistic: (p, n) => p.reduce((a, v, i) => a + v / n[i], 0) / p.length }],
    { paired: true, nResamples: settings.nResamples, seed: settings.seed, confidenceLevel: settings.confidenceLevel, resampleIndices: options.resampleIndices },
  );
  const rate = (value: number, ci: typeof microCi): Rate =>
    ci.low === null || ci.high === null ? { value, ci: null, reason: `no bootstrap CI: ${ci.reason}` } : { value, ci: [ci.low, ci.high] };
  return { micro: rate(micro, microCi), macro: rate(macro, macroCi) };
}

function passRateRow(system: string, tests: readonly BenchmarkTest[], passed: ReadonlySet<string>, given: number, options: PassRateOptions): PassRateRow {
  const scores = instanceScores(tests, passed);
  const passedCount = scores.reduce((a, s) => a + s.passed, 0);
  const { micro, macro } = clusteredRates(scores.map((s) => s.passed), scores.map((s) => s.tests), "the benchmark has no tests", options);
  return { system, human: system === HUMAN_SYSTEM, instances: scores.length, tests: tests.length, passed: passedCount, missing: tests.length - given, microPassRate: micro, macroPassRate: macro };
}

/**
 * Table 5's pass rates per system: instances, tests, passed, the micro and macro pass rates
 * with bootstrap CIs over instances; the human reviewers first (unless left out), then by name.
 */
export function passRates(tests: readonly BenchmarkTest[], outcomes: readonly TestOutcome[], options: PassRateOptions = {}): PassRateRow[] {
  const { passed, given } = passedBySystem(tests, outcomes);
  const systems = inTableOrder([...(options.humanReviewers ?? true ? [HUMAN_SYSTEM] : []), ...passed.keys()]);
  const all = new Set(tests.map((t) => t.testId));
  return systems.map((system) =>
    system === HUMAN_SYSTEM ? passRateRow(system, tests, all, tests.length, options) : passRateRow(system, tests, passed.get(system)!, given.get(system)!, options),
  );
}

export interface OverlapCombination {
  /** The systems that passed these tests, in the overlap's system order. */
  systems: string[];
  /** Tests passed by exactly these systems and no other. */
  passed: number;
}

export interface PassedOverlap {
  systems: string[];
  tests: number;
  /** Tests passed by at least one system, and their share of the tests (null without tests). */
  union: number;
  unionShare: number | null;
  /** Tests no system passed. */
  none: number;
  /** Every non-empty combination of systems, by size then system order (UpSet's exclusive intersections; Figure 5's regions). */
  combinations: OverlapCombination[];
  /** Per system, the tests only it passed. */
  unique: Record<string, number>;
}

/** The most systems whose combinations are listed (2^16 - 1 of them). */
const MAX_OVERLAP_SYSTEMS = 16;

/** Figure 5: how the systems' passed tests overlap (the human reviewers are left out: they pass every test). */
export function passedOverlap(tests: readonly BenchmarkTest[], outcomes: readonly TestOutcome[]): PassedOverlap {
  const { passed } = passedBySystem(tests, outcomes);
  const systems = inTableOrder(passed.keys());
  if (systems.length > MAX_OVERLAP_SYSTEMS) throw new RangeError(`the overlap of ${systems.length} systems has too many combinations to list (at most ${MAX_OVERLAP_SYSTEMS} systems)`);
  // Each test's combination as a bit mask over the systems.
  const counts = new Array<number>(2 ** systems.length).fill(0);
  for (const t of tests) {
    let mask = 0;
    systems.forEach((s, k) => {
      if (passed.get(s)!.has(t.testId)) mask |= 1 << k;
    });
    counts[mask]++;
  }
  const masks = Array.from({ length: counts.length - 1 }, (_, i) => i + 1);
  const size = (m: number) => systems.filter((_, k) => m & (1 << k)).length;
  const order = (m: number) => systems.map((_, k) => (m & (1 << k) ? 0 : 1)).join("");
  masks.sort((a, b) => size(a) - size(b) || (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  const union = tests.length - counts[0];
  return {
    systems,
    tests: tests.length,
    union,
    unionShare: tests.length === 0 ? null : union / tests.length,
    none: counts[0],
    combinations: masks.map((m) => ({ systems: systems.filter((_, k) => m & (1 << k)), passed: counts[m] })),
    unique: Object.fromEntries(systems.map((s, k) => [s, counts[1 << k]])),
  };
}

export interface GroupCell {
  tests: number;
  passed: number;
  /** passed / tests with Wilson's interval; null (with reason) for a group without tests. */
  rate: Rate;
}

export interface GroupPassRates {
  /** The groups in the order given, then any others the tests name, by name. */
  groups: string[];
  /** Tests without a group (a human comment without a consensus category): in no cell. */
  ungrouped: number;
  confidenceLevel: number;
  rows: { system: string; human: boolean; cells: Record<string, GroupCell> }[];
}

/**
 * Pass rates per group of tests (Figure 7 by the human comment's category; Table 5 by
 * behavioral and structural tests): per system and group, passed of the group's tests, with
 * Wilson's interval (tests counted as independent; a group rarely holds two tests of an instance).
 */
export function passRatesByGroup(
  tests: readonly (BenchmarkTest & { group: string | null })[],
  outcomes: readonly TestOutcome[],
  groupOrder: readonly string[] = [],
  options: { humanReviewers?: boolean; confidenceLevel?: number } = {},
): GroupPassRates {
  const { passed } = passedBySystem(tests, outcomes);
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const named = [...new Set(tests.flatMap((t) => (t.group === null || groupOrder.includes(t.group) ? [] : [t.group])))].sort();
  const groups = [...groupOrder, ...named];
  const systems = inTableOrder([...(options.humanReviewers ?? true ? [HUMAN_SYSTEM] : []), ...passed.keys()]);
  const rows = systems.map((system) => {
    const passes = (t: BenchmarkTest) => system === HUMAN_SYSTEM || passed.get(system)!.has(t.testId);
    const cells = Object.fromEntries(
      groups.map((group) => {
        const own = tests.filter((t) => t.group === group);
        const count = own.filter(passes).length;
        const ci = wilsonInterval(count, own.length, confidenceLevel);
        const rate: Rate = own.length === 0 ? { value: null, ci: null, reason: "no test of this group" } : { value: count / own.length, ci };
        return [group, { tests: own.length, passed: count, rate }];
      }),
    );
    return { system, human: system === HUMAN_SYSTEM, cells };
  });
  return { groups, ungrouped: tests.filter((t) => t.group === null).length, confidenceLevel, rows };
}
