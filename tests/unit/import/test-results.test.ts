/** Test outcomes from JUnit reports, tied to the human comments whose linked tests they are (lib/import/test-results.ts). */
import { describe, expect, test } from "vitest";
import { ErrorCollector } from "@/lib/import/errors";
import { parseJunitXml } from "@/lib/import/junit";
import { classnameFits, linkOutcomes, outcomesOfJunit, parseOutcomesJsonl, type LinkableComment } from "@/lib/import/test-results";

const COMMENTS: LinkableComment[] = [
  { id: "id-c1", externalId: "c1", testPath: "tests/test_retry.py" },
  { id: "id-c2", externalId: "c2", testPath: "src/retry.test.js" },
  { id: "id-c3", externalId: "c3", testPath: "src/test/java/com/acme/RetryTest.java" },
  { id: "id-c4", externalId: "c4", testPath: "retry/retry_test.go" },
  { id: "id-c5", externalId: "c5", testPath: null },
];

function outcomes(files: Record<string, string>, comments = COMMENTS) {
  const errors = new ErrorCollector();
  const read = Object.entries(files).flatMap(([file, text]) => (file.endsWith(".jsonl") ? parseOutcomesJsonl(text, file, errors) : outcomesOfJunit(parseJunitXml(text, file, errors))));
  return { ...linkOutcomes(read.map((o) => ({ ...o, system: o.system ?? "X" })), comments, errors), errors: errors.all };
}

describe("a test's comment", () => {
  test("class names fit test files: Python modules and classes, Java classes, Go packages", () => {
    expect(classnameFits("tests.test_retry", "tests/test_retry.py")).toBe(true);
    expect(classnameFits("tests.test_retry.TestBackoff", "./tests/test_retry.py")).toBe(true);
    expect(classnameFits("com.acme.RetryTest", "src/test/java/com/acme/RetryTest.java")).toBe(true);
    expect(classnameFits("github.com/acme/demo/retry", "retry/retry_test.go")).toBe(true);
    expect(classnameFits("tests.test_other", "tests/test_retry.py")).toBe(false);
    expect(classnameFits("github.com/acme/demo/retry", "retry/retry.py")).toBe(false);
    expect(classnameFits("acme.RetryTestX", "src/test/java/com/acme/RetryTest.java")).toBe(false);
  });

  test("by a comment property, by file, by class name; statuses, durations and messages as stored", () => {
    const { outcomes: rows, warnings, errors } = outcomes({
      "pytest.xml": `<testsuites><testsuite name="pytest"><testcase classname="tests.test_retry" name="test_a" time="0.5"/><testcase classname="x" name="test_b"><properties><property name="comment" value="c5"/></properties><failure message="boom"/></testcase></testsuite></testsuites>`,
      "jest.xml": `<testsuites><testsuite name="retry"><testcase classname="retry works" name="retry works" file="src/retry.test.js"><skipped/></testcase></testsuite></testsuites>`,
      "TEST-com.acme.RetryTest.xml": `<testsuite name="com.acme.RetryTest"><testcase classname="com.acme.RetryTest" name="runs"><error message="npe"/></testcase></testsuite>`,
      "go.xml": `<testsuites><testsuite name="github.com/acme/demo/retry"><testcase classname="github.com/acme/demo/retry" name="TestRetry"/><testcase classname="github.com/acme/demo/other" name="TestOther"/></testsuite></testsuites>`,
    });
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(rows.map((r) => [r.testId, r.status, r.durationSeconds, r.message, r.reviewCommentId, r.at.file])).toEqual([
      ["tests.test_retry::test_a", "PASSED", 0.5, "", "id-c1", "pytest.xml"],
      ["x::test_b", "FAILED", null, "boom", "id-c5", "pytest.xml"],
      ["retry works::retry works", "SKIPPED", null, "", "id-c2", "jest.xml"],
      ["com.acme.RetryTest::runs", "ERROR", null, "npe", "id-c3", "TEST-com.acme.RetryTest.xml"],
      ["github.com/acme/demo/retry::TestRetry", "PASSED", null, "", "id-c4", "go.xml"],
      ["github.com/acme/demo/other::TestOther", "PASSED", null, "", null, "go.xml"],
    ]);
  });

  test("a test that fits two comments' tests is tied to none, with a warning", () => {
    const twins = [...COMMENTS, { id: "id-c6", externalId: "c6", testPath: "tests/test_retry.py" }];
    const { outcomes: rows, warnings } = outcomes({ "r.xml": `<testsuite>\n<testcase classname="tests.test_retry" name="t"/></testsuite>` }, twins);
    expect(rows[0].reviewCommentId).toBeNull();
    expect(warnings).toEqual([`r.xml: line 2: test "tests.test_retry::t" fits the linked tests of comments c1, c6; it is tied to none (name its comment)`]);
  });
});

describe("errors name the file and line", () => {
  test("an unknown comment, and a test given in two files", () => {
    const { errors } = outcomes({
      "a.xml": `<testsuite>\n<testcase name="t"><properties><property name="comment" value="c9"/></properties></testcase></testsuite>`,
      "b.xml": `<testsuite>\n\n<testcase name="t"/></testsuite>`,
    });
    expect(errors).toEqual([
      { file: "a.xml", line: 2, field: "comment", message: `"c9" is not a review comment of the pull request` },
      { file: "b.xml", line: 3, field: "test", message: `test "t" of system "X" is also in a.xml (line 2): a test's outcome must be given once` },
    ]);
  });
});

describe("the outcomes JSONL", () => {
  test("one outcome per line, with its pull request, system and comment when given", () => {
    const errors = new ErrorCollector();
    const read = parseOutcomesJsonl(
      `{"pr": "acme/api#3", "system": "codex", "test": "tests/test_retry.py::test_a", "outcome": "passed", "comment": "c1", "durationSeconds": 0.5}\n\n{"test": "t2", "outcome": "skipped", "message": "later", "comment": 7}\n`,
      "o.jsonl",
      errors,
    );
    expect(errors.all).toEqual([]);
    expect(read).toEqual([
      { pullRequest: "acme/api#3", system: "codex", testId: "tests/test_retry.py::test_a", status: "PASSED", durationSeconds: 0.5, message: "", file: null, classname: null, comment: "c1", at: { file: "o.jsonl", line: 1 } },
      { pullRequest: null, system: null, testId: "t2", status: "SKIPPED", durationSeconds: null, message: "later", file: null, classname: null, comment: "7", at: { file: "o.jsonl", line: 3 } },
    ]);
    // "tool", the and c-CRAB's word, is another name for system
    const tool = parseOutcomesJsonl(`{"test": "t", "outcome": "passed", "tool": "devin"}\n{"test": "u", "outcome": "passed", "tool": "devin", "system": "devin"}`, "o.jsonl", errors);
    expect(errors.all).toEqual([]);
    expect(tool.map((o) => o.system)).toEqual(["devin", "devin"]);
    const { outcomes: rows } = outcomes({ "o.jsonl": `{"test": "a", "outcome": "failed", "comment": "c2"}` });
    expect(rows).toMatchObject([{ testId: "a", status: "FAILED", reviewCommentId: "id-c2", system: "X" }]);
  });

  test("errors name the line and field: not JSON, an unknown outcome or key, a missing test, a test twice", () => {
    const errors = new ErrorCollector();
    parseOutcomesJsonl(`{"test": "a", "outcome": "passed"}\nnot json\n{"test": "b", "outcome": "PASS"}\n{"outcome": "passed", "reviewer": "x"}\n{"test": "a", "outcome": "failed"}\n{"test": "c", "outcome": "passed", "system": "x", "tool": "y"}`, "o.jsonl", errors);
    expect(errors.all.map((e) => [e.line, e.field])).toEqual([
      [2, undefined],
      [3, "outcome"],
      [4, "test"],
      [4, undefined],
      [5, "test"],
      [6, "tool"],
    ]);
    expect(errors.all[4].message).toBe(`test "a" is also at line 1: a test's outcome must be given once`);
  });
});
