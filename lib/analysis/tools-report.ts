/**
 * The test-based figures of a study's review systems (c-CRAB Table 5, Figures 5 and 7) from
 * stored test outcomes (docs/test-results.md): the tests of an instance are every test some
 * system has an outcome for on that pull request (c-CRAB runs the same validated tests for every
 * system); a test's category is the consensus category of the human comment whose test it is.
 */
import { passedOverlap, passRates, passRatesByGroup, type GroupPassRates, type PassedOverlap, type PassRateRow, type RateOptions } from "./pass-rates";

/** One stored outcome, as the report reads it. */
export interface StoredOutcome {
  pullRequest: string;
  system: string;
  testId: string;
  passed: boolean;
  /** The consensus category of the test's human comment; null when it has none (or no comment). */
  category: string | null;
}

export interface ToolsReport {
  /** Table 5: per system, the human reviewers first. */
  systems: PassRateRow[];
  /** Figure 5; null (with a note) with fewer than two systems. */
  overlap: PassedOverlap | null;
  /** Figure 7; null when there is no category question, or (with a note) no test has a category. */
  byCategory: GroupPassRates | null;
  notes: string[];
}

/** A test's key across pull requests (test ids are unique within one). */
const testKey = (o: Pick<StoredOutcome, "pullRequest" | "testId">) => `${o.pullRequest}\u0000${o.testId}`;

/**
 * The report of the outcomes; `categories` are the category codes in the codebook's order, null
 * when the study has no category question (then there are no pass rates per category).
 */
export function toolsReport(outcomes: readonly StoredOutcome[], categories: readonly string[] | null, options: RateOptions = {}): ToolsReport {
  const notes: string[] = [];
  const tests = new Map<string, { testId: string; instance: string; group: string | null }>();
  const conflicting = new Set<string>();
  for (const o of outcomes) {
    const key = testKey(o);
    const known = tests.get(key);
    if (!known) tests.set(key, { testId: key, instance: o.pullRequest, group: o.category });
    else if (known.group === null) known.group = o.category;
    else if (o.category !== null && o.category !== known.group) conflicting.add(key);
  }
  for (const key of conflicting) tests.get(key)!.group = null;
  if (conflicting.size > 0) notes.push(`${conflicting.size} test(s) are tied to comments of different categories by different systems' imports: they are in no category.`);
  const benchmark = [...tests.values()];
  const results = outcomes.map((o) => ({ system: o.system, testId: testKey(o), passed: o.passed }));
  if (benchmark.length === 0) notes.push("No test outcomes are imported: no pass rates.");
  const systemCount = new Set(outcomes.map((o) => o.system)).size;
  if (benchmark.length > 0 && systemCount < 2) notes.push("The overlap of passed tests needs at least two systems.");
  const grouped = categories !== null && benchmark.some((t) => t.group !== null);
  if (benchmark.length > 0 && categories !== null && !grouped) notes.push("No test's human comment has a consensus category: no pass rates per category.");
  return {
    systems: passRates(benchmark, results, options),
    overlap: systemCount >= 2 ? passedOverlap(benchmark, results) : null,
    byCategory: grouped ? passRatesByGroup(benchmark, results, categories) : null,
    notes,
  };
}
