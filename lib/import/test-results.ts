/**
 * A system's test results for one pull request, from JUnit XML files (./junit.ts), as the rows
 * to store: each test's outcome, tied to the human comment whose linked test it is (c-CRAB
 * §4.2.3: each test encodes one human comment; §5.3: a test inherits its comment's category).
 * A test is tied to a comment, in this order:
 * 1. by a `comment` property naming the comment's id (pytest's `record_property("comment", ID)`);
 *    an id that is not a comment of the pull request is an error with the file and line;
 * 2. by its `file` attribute equal to the comment's `testPath`;
 * 3. by its class name: the test file's module path (`tests/test_retry.py` is
 *    `tests.test_retry`: pytest's class names, and Surefire's `com.acme.RetryTest` for
 *    `src/test/java/com/acme/RetryTest.java`), or Go's package ending in the test file's folder.
 * A test whose file or class name fits several comments' tests is tied to none, with a warning.
 */
import type { TestStatus as StoredStatus } from "@/lib/generated/prisma/enums";
import type { ErrorCollector, SourceLocation } from "./errors";
import type { JunitReport, JunitTestCase, TestStatus } from "./junit";

/** A review comment of the pull request, with its linked test's file when it has one. */
export interface LinkableComment {
  id: string;
  externalId: string;
  testPath: string | null;
}

export interface TestOutcomeInput {
  testId: string;
  status: StoredStatus;
  durationSeconds: number | null;
  message: string;
  reviewCommentId: string | null;
  at: SourceLocation;
}

const STORED: Record<TestStatus, StoredStatus> = { passed: "PASSED", failed: "FAILED", error: "ERROR", skipped: "SKIPPED" };

/** The property that names a test's comment. */
export const COMMENT_PROPERTY = "comment";

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
function fittingComments(testcase: JunitTestCase, linked: readonly LinkableComment[]): LinkableComment[] {
  if (testcase.file !== null) {
    const byFile = linked.filter((c) => normalPath(c.testPath!) === normalPath(testcase.file!));
    if (byFile.length > 0) return byFile;
  }
  return testcase.classname === null ? [] : linked.filter((c) => classnameFits(testcase.classname!, c.testPath!));
}

/**
 * The outcomes of every testcase of the reports, tied to comments; a test given in two files,
 * or naming an unknown comment, is an error with its file and line.
 */
export function testOutcomesOf(reports: readonly JunitReport[], comments: readonly LinkableComment[], errors: ErrorCollector): { outcomes: TestOutcomeInput[]; warnings: string[] } {
  const byExternalId = new Map(comments.map((c) => [c.externalId, c]));
  const linked = comments.filter((c) => c.testPath !== null);
  const seen = new Map<string, SourceLocation>();
  const outcomes: TestOutcomeInput[] = [];
  const warnings: string[] = [];
  for (const testcase of reports.flatMap((r) => r.testcases)) {
    const where = `${testcase.at.file}: line ${testcase.at.line}`;
    const first = seen.get(testcase.testId);
    if (first !== undefined) {
      if (first.file !== testcase.at.file) errors.add(testcase.at, "name", `test "${testcase.testId}" is also in ${first.file} (line ${first.line}): a test's outcome must be given once`);
      continue;
    }
    seen.set(testcase.testId, testcase.at);
    let reviewCommentId: string | null = null;
    const named = testcase.properties[COMMENT_PROPERTY];
    if (named !== undefined) {
      const comment = byExternalId.get(named);
      if (!comment) errors.add(testcase.at, `property ${COMMENT_PROPERTY}`, `"${named}" is not a review comment of the pull request`);
      else reviewCommentId = comment.id;
    } else {
      const fitting = fittingComments(testcase, linked);
      if (fitting.length === 1) reviewCommentId = fitting[0].id;
      else if (fitting.length > 1) warnings.push(`${where}: test "${testcase.testId}" fits the linked tests of comments ${fitting.map((c) => c.externalId).join(", ")}; it is tied to none (name its comment with a "${COMMENT_PROPERTY}" property)`);
    }
    outcomes.push({
      testId: testcase.testId,
      status: STORED[testcase.status],
      durationSeconds: testcase.durationSeconds,
      message: testcase.message ?? "",
      reviewCommentId,
      at: testcase.at,
    });
  }
  return { outcomes, warnings };
}
