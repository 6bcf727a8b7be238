/**
 * A system's test outcomes for pull requests, as the rows to store: read from JUnit XML
 * (./junit.ts) or from the outcomes JSONL below, then tied to the human comment whose linked
 * test each test is (c-CRAB §4.2.3: each test encodes one human comment; §5.3: a test inherits
 * its comment's category). A test is tied to a comment, in this order:
 * 1. by the comment its results name: JUnit's `comment` property (pytest's
 *    `record_property("comment", ID)`), the JSONL's `comment`; an id that is not a comment of
 *    the pull request is an error with the file and line;
 * 2. by its `file` attribute equal to the comment's `testPath`;
 * 3. by its class name: the test file's module path (`tests/test_retry.py` is
 *    `tests.test_retry`: pytest's class names, and Surefire's `com.acme.RetryTest` for
 *    `src/test/java/com/acme/RetryTest.java`), or Go's package ending in the test file's folder.
 * A test whose file or class name fits several comments' tests is tied to none, with a warning.
 */
import { z } from "zod";
import type { TestStatus as StoredStatus } from "@/lib/generated/prisma/enums";
import type { ErrorCollector, ImportError, SourceLocation } from "./errors";
import { jsonPath } from "./jsonl";
import type { JunitReport, JunitSkipped, TestStatus } from "./junit";

/** A test's outcome as its file gives it, before it is tied to a comment. */
export interface ReadOutcome {
  /** The pull request (its id or URL) and the system the file names; null: the import's. */
  pullRequest: string | null;
  system: string | null;
  testId: string;
  status: StoredStatus;
  durationSeconds: number | null;
  message: string;
  file: string | null;
  classname: string | null;
  /** The id of the comment the results name, if they name one. */
  comment: string | null;
  at: SourceLocation;
}

/** A review comment of the pull request, with its linked test's file when it has one. */
export interface LinkableComment {
  id: string;
  externalId: string;
  testPath: string | null;
}

export interface TestOutcomeInput {
  system: string;
  testId: string;
  status: StoredStatus;
  durationSeconds: number | null;
  message: string;
  reviewCommentId: string | null;
  at: SourceLocation;
}

const STORED: Record<TestStatus, StoredStatus> = { passed: "PASSED", failed: "FAILED", error: "ERROR", skipped: "SKIPPED" };

/** The JUnit property that names a test's comment. */
export const COMMENT_PROPERTY = "comment";

/** A JUnit report's tests as read outcomes (the pull request and system are the import's). */
export function outcomesOfJunit(report: JunitReport): ReadOutcome[] {
  return report.testcases.map((t) => ({
    pullRequest: null,
    system: null,
    testId: t.testId,
    status: STORED[t.status],
    durationSeconds: t.durationSeconds,
    message: t.message ?? "",
    file: t.file,
    classname: t.classname,
    comment: t.properties[COMMENT_PROPERTY] ?? null,
    at: t.at,
  }));
}

const name = z.string().trim().min(1).max(1000);
const outcomeLine = z.strictObject({
  pr: name.optional().describe("The pull request's id in the study or its URL; default: the import's --pr"),
  system: z.string().trim().min(1).max(200).optional().describe("The system whose review guided the revision; default: the import's --system"),
  tool: z.string().trim().min(1).max(200).optional().describe("The issue's spelling of system (c-CRAB's \"tool\"), accepted as an alias"),
  test: name.describe("The test's id, unique per pull request and system"),
  outcome: z.enum(["passed", "failed", "error", "skipped"]),
  comment: z.union([name, z.int().min(0)]).transform(String).optional().describe("The id of the human comment the test encodes"),
  durationSeconds: z.number().min(0).optional(),
  message: z.string().max(100_000).optional(),
});

/** The outcomes JSONL: one test's outcome per line (docs/test-results.md). */
export function parseOutcomesJsonl(text: string, file: string, errors: ErrorCollector): ReadOutcome[] {
  const outcomes: ReadOutcome[] = [];
  const seen = new Map<string, number>();
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    const at = { file, line: i + 1 };
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      errors.add(at, undefined, `not valid JSON: ${(error as Error).message}`);
      return;
    }
    const parsed = outcomeLine.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors.add(at, issue.path.length === 0 ? undefined : jsonPath(issue.path), issue.message);
      return;
    }
    const line = parsed.data;
    if (line.system !== undefined && line.tool !== undefined && line.system !== line.tool) {
      errors.add(at, "tool", `system "${line.system}" and tool "${line.tool}" differ: tool is another name for system, give one`);
      return;
    }
    const system = line.system ?? line.tool;
    const key = `${line.pr ?? ""}\u0000${system ?? ""}\u0000${line.test}`;
    const first = seen.get(key);
    if (first !== undefined) {
      errors.add(at, "test", `test "${line.test}" is also at line ${first}: a test's outcome must be given once`);
      return;
    }
    seen.set(key, at.line);
    outcomes.push({
      pullRequest: line.pr ?? null,
      system: system ?? null,
      testId: line.test,
      status: STORED[line.outcome],
      durationSeconds: line.durationSeconds ?? null,
      message: line.message ?? "",
      file: null,
      classname: null,
      comment: line.comment ?? null,
      at,
    });
  });
  return outcomes;
}

const normalPath = (p: string) => p.trim().replace(/\\/g, "/").replace(/^\.\//, "");

/** Whether a test's class name names the test file `testPath` (module path, or Go package folder). */
export function classnameFits(classname: string, testPath: string): boolean {
  const file = normalPath(testPath);
  const modulePath = file.replace(/\.[^./]+$/, "").replace(/\//g, ".");
  if (classname === modulePath || modulePath.endsWith(`.${classname}`) || classname.startsWith(`${modulePath}.`)) return true;
  const folder = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
  return file.endsWith("_test.go") && folder !== "" && (classname === folder || classname.endsWith(`/${folder}`));
}

/** The comments a test's file or class name fits (rules 2 and 3), by the first rule that fits any. */
function fittingComments(outcome: ReadOutcome, linked: readonly LinkableComment[]): LinkableComment[] {
  if (outcome.file !== null) {
    const byFile = linked.filter((c) => normalPath(c.testPath!) === normalPath(outcome.file!));
    if (byFile.length > 0) return byFile;
  }
  return outcome.classname === null ? [] : linked.filter((c) => classnameFits(outcome.classname!, c.testPath!));
}

/**
 * One pull request's outcomes (each with its system) tied to its comments; a test given twice
 * for a system, or naming an unknown comment, is an error with its file and line.
 */
export function linkOutcomes(outcomes: readonly (ReadOutcome & { system: string })[], comments: readonly LinkableComment[], errors: ErrorCollector): { outcomes: TestOutcomeInput[]; warnings: string[] } {
  const byExternalId = new Map(comments.map((c) => [c.externalId, c]));
  const linked = comments.filter((c) => c.testPath !== null);
  const seen = new Map<string, SourceLocation>();
  const rows: TestOutcomeInput[] = [];
  const warnings: string[] = [];
  for (const outcome of outcomes) {
    const key = `${outcome.system}\u0000${outcome.testId}`;
    const first = seen.get(key);
    if (first !== undefined) {
      // Twice in one file is its parser's error already.
      if (first.file !== outcome.at.file) errors.add(outcome.at, "test", `test "${outcome.testId}" of system "${outcome.system}" is also in ${first.file} (line ${first.line}): a test's outcome must be given once`);
      continue;
    }
    seen.set(key, outcome.at);
    let reviewCommentId: string | null = null;
    if (outcome.comment !== null) {
      const comment = byExternalId.get(outcome.comment);
      if (!comment) errors.add(outcome.at, "comment", `"${outcome.comment}" is not a review comment of the pull request`);
      else reviewCommentId = comment.id;
    } else {
      const fitting = fittingComments(outcome, linked);
      if (fitting.length === 1) reviewCommentId = fitting[0].id;
      else if (fitting.length > 1) warnings.push(`${outcome.at.file}: line ${outcome.at.line}: test "${outcome.testId}" fits the linked tests of comments ${fitting.map((c) => c.externalId).join(", ")}; it is tied to none (name its comment)`);
    }
    rows.push({ system: outcome.system, testId: outcome.testId, status: outcome.status, durationSeconds: outcome.durationSeconds, message: outcome.message, reviewCommentId, at: outcome.at });
  }
  return { outcomes: rows, warnings };
}

/** What an import of test outcomes wrote (lib/data/test-outcomes.ts). */
export interface TestResultsSummary {
  study: string;
  /** The pull requests and systems whose outcomes were replaced, by id and name. */
  pullRequests: string[];
  systems: string[];
  files: string[];
  tests: number;
  byStatus: Record<StoredStatus, number>;
  /** Tests tied to a human comment. */
  linked: number;
  /** The earlier outcomes this import replaced. */
  replaced: number;
  skipped: JunitSkipped[];
  warnings: string[];
  importRunId: string;
}

export type TestResultsResult = { status: "imported"; summary: TestResultsSummary } | { status: "refused"; errors: ImportError[]; totalErrors: number };
