/**
 * The test-based figures of a study's review systems (c-CRAB Table 5, Figures 5 and 7) from
 * stored test outcomes (docs/test-results.md): the tests of an instance are every test some
 * system has an outcome for on that pull request (c-CRAB runs the same validated tests for every
 * system); a test inherits the consensus answers of the human comment it is tied to: its
 * category (Figure 7, §5.3) and yes/no answers such as high quality or "the test captures the
 * concern", which relate human judgements to outcomes.
 */
import { passedOverlap, passRates, passRatesByGroup, type GroupPassRates, type PassedOverlap, type PassRateRow, type RateOptions } from "./pass-rates";

/** One stored outcome, as the report reads it. */
export interface StoredOutcome {
  pullRequest: string;
  system: string;
  testId: string;
  passed: boolean;
  /** The id of the human comment the test is tied to; null when none. */
  comment: string | null;
}

/** The questions whose consensus answers group tests. */
export interface ReportQuestions {
  /** The category question's key and codes in the codebook's order; null when the study has none. */
  category: { key: string; codes: readonly string[] } | null;
  /** Yes/no questions' keys. */
  binary: readonly string[];
}

/** A comment's consensus answer to a question (a category code, "yes" or "no"); null when undecided. */
export type AnswerOf = (commentId: string, question: string) => string | null;

export interface ToolsReport {
  /** Table 5: per system, the human reviewers first. */
  systems: PassRateRow[];
  /** Figure 5; null (with a note) with fewer than two systems. */
  overlap: PassedOverlap | null;
  /** Figure 7; null when there is no category question, or (with a note) no test has a category. */
  byCategory: GroupPassRates | null;
  /** Per yes/no question with a decided test: pass rates of tests whose comment was answered yes and no. */
  byAnswer: { question: string; rates: GroupPassRates }[];
  notes: string[];
}

/** A test's key across pull requests (test ids are unique within one). */
const testKey = (o: Pick<StoredOutcome, "pullRequest" | "testId">) => `${o.pullRequest}\u0000${o.testId}`;

/** The report of the outcomes, grouping tests by their comments' consensus answers. */
export function toolsReport(outcomes: readonly StoredOutcome[], questions: ReportQuestions, answerOf: AnswerOf, options: RateOptions = {}): ToolsReport {
  const notes: string[] = [];
  const tests = new Map<string, { testId: string; instance: string; comment: string | null }>();
  const conflicting = new Set<string>();
  for (const o of outcomes) {
    const key = testKey(o);
    const known = tests.get(key);
    if (!known) tests.set(key, { testId: key, instance: o.pullRequest, comment: o.comment });
    else if (known.comment === null) known.comment = o.comment;
    else if (o.comment !== null && o.comment !== known.comment) conflicting.add(key);
  }
  for (const key of conflicting) tests.get(key)!.comment = null;
  if (conflicting.size > 0) notes.push(`${conflicting.size} test(s) are tied to different comments by different systems' imports: they inherit no answers.`);
  const benchmark = [...tests.values()];
  const results = outcomes.map((o) => ({ system: o.system, testId: testKey(o), passed: o.passed }));
  const groupedBy = (question: string) => benchmark.map((t) => ({ ...t, group: t.comment === null ? null : answerOf(t.comment, question) }));

  if (benchmark.length === 0) notes.push("No test outcomes are imported: no pass rates.");
  const systemCount = new Set(outcomes.map((o) => o.system)).size;
  if (benchmark.length > 0 && systemCount < 2) notes.push("The overlap of passed tests needs at least two systems.");
  let byCategory: GroupPassRates | null = null;
  if (questions.category && benchmark.length > 0) {
    const grouped = groupedBy(questions.category.key);
    if (grouped.some((t) => t.group !== null)) byCategory = passRatesByGroup(grouped, results, questions.category.codes);
    else notes.push("No test's human comment has a consensus category: no pass rates per category.");
  }
  const byAnswer = questions.binary.flatMap((question) => {
    const grouped = groupedBy(question);
    return grouped.some((t) => t.group !== null) ? [{ question, rates: passRatesByGroup(grouped, results, ["yes", "no"]) }] : [];
  });
  return { systems: passRates(benchmark, results, options), overlap: systemCount >= 2 ? passedOverlap(benchmark, results) : null, byCategory, byAnswer, notes };
}
