/**
 * JUnit XML test results, the format every common test runner writes: pytest (`--junitxml`),
 * Jest (jest-junit), Maven Surefire (`TEST-*.xml`) and Go (go-junit-report, gotestsum). A
 * `testsuites` or `testsuite` root; test suites may nest; each `testcase` passed unless it holds
 * an `error`, a `failure` or `skipped` (docs/test-results.md).
 *
 * The XML is read by saxes (a non-validating XML 1.0 parser, already installed with exceljs): it
 * decodes entities and CDATA, drops a byte-order mark and refuses what is not well-formed,
 * with the line. What the format does not need (properties of a suite, unknown elements) is
 * read past and listed in `skipped`.
 */
import { SaxesParser } from "saxes";
import type { ErrorCollector, SourceLocation } from "./errors";

/** A test's outcome; c-CRAB §4.3.2 counts only `passed` as PASS. */
export type TestStatus = "passed" | "failed" | "error" | "skipped";

export interface JunitTestCase {
  /** `classname::name`, or `name` without a class name: the test's id within a run. */
  testId: string;
  name: string;
  classname: string | null;
  /** The test's source file, when the runner writes it (pytest, jest-junit's addFileAttribute). */
  file: string | null;
  /** The names of the enclosing test suites, outermost first. */
  suites: string[];
  status: TestStatus;
  /** `time`, in seconds; null when absent or not a number. */
  durationSeconds: number | null;
  /** The deciding element's `message`, else the first non-empty line of its text; null when neither. */
  message: string | null;
  /** The deciding element's text (a stack trace, a skip reason). */
  details: string;
  /** Surefire's `flakyFailure` / `flakyError`: failed, then passed on a rerun. */
  flaky: boolean;
  properties: Record<string, string>;
  systemOut: string;
  systemErr: string;
  at: SourceLocation;
}

/** Something read past, with where and why. */
export interface JunitSkipped extends SourceLocation {
  reason: string;
}

export interface JunitReport {
  testcases: JunitTestCase[];
  skipped: JunitSkipped[];
}

/** Elements a testcase may hold and what they mean (Surefire's rerun elements only annotate). */
const OUTCOME_ELEMENTS: Record<string, TestStatus> = { error: "error", failure: "failed", skipped: "skipped" };
const STATUS_RANK: Record<TestStatus, number> = { passed: 0, skipped: 1, failed: 2, error: 3 };
const TEXT_ELEMENTS = new Set(["system-out", "system-err"]);
const RERUN_ELEMENTS = new Set(["flakyFailure", "flakyError", "rerunFailure", "rerunError"]);

interface OpenCase {
  testcase: JunitTestCase;
  /** The deciding element's message attribute, until its text is known. */
  messageAttribute: string | null;
}

/** The first non-empty line of a text, trimmed; null when there is none. */
function firstLine(text: string): string | null {
  return text.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? null;
}

/** Parses one JUnit XML file; well-formedness and structure errors go to `errors` with the file and line. */
export function parseJunitXml(text: string, file: string, errors: ErrorCollector): JunitReport {
  const report: JunitReport = { testcases: [], skipped: [] };
  const parser = new SaxesParser({ position: true });
  const stack: string[] = [];
  const suites: string[] = [];
  let open: OpenCase | null = null;
  /** The element whose text is being collected inside the open testcase, and its text. */
  let collecting: { element: string; text: string } | null = null;
  let tagLine = 1;
  let failed = false;
  const at = (line: number): SourceLocation => ({ file, line });
  const skip = (line: number, reason: string) => report.skipped.push({ file, line, reason });

  parser.on("error", (error) => {
    if (!failed) errors.add(at(parser.line), undefined, `not well-formed XML: ${error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, "")}`);
    failed = true;
    throw error;
  });
  parser.on("opentagstart", () => {
    tagLine = parser.line;
  });
  parser.on("opentag", (tag) => {
    const name = tag.name;
    const attributes = tag.attributes as Record<string, string>;
    const parent = stack.at(-1);
    stack.push(name);
    if (parent === undefined) {
      if (name !== "testsuites" && name !== "testsuite") errors.add(at(tagLine), undefined, `the root element is <${name}>, not <testsuites> or <testsuite>: not a JUnit XML file`);
      if (name === "testsuite") suites.push(attributes.name ?? "");
      return;
    }
    if (name === "testsuite" && (parent === "testsuites" || parent === "testsuite")) {
      suites.push(attributes.name ?? "");
      return;
    }
    if (name === "testcase" && parent === "testsuite") {
      const testcase = caseOf(attributes, [...suites], at(tagLine), errors, skip);
      open = testcase ? { testcase, messageAttribute: null } : null;
      return;
    }
    if (parent === "testcase" && open) {
      const status = OUTCOME_ELEMENTS[name];
      if (status !== undefined) {
        if (STATUS_RANK[status] > STATUS_RANK[open.testcase.status]) {
          open.testcase.status = status;
          open.messageAttribute = attributes.message ?? null;
          collecting = { element: name, text: "" };
        }
        return;
      }
      if (TEXT_ELEMENTS.has(name)) {
        collecting = { element: name, text: "" };
        return;
      }
      if (RERUN_ELEMENTS.has(name)) {
        if (name.startsWith("flaky")) open.testcase.flaky = true;
        return;
      }
      if (name === "properties") return;
    }
    if (name === "property" && stack.at(-2) === "properties" && stack.at(-3) === "testcase" && open) {
      if (attributes.name === undefined) skip(tagLine, "a property without a name");
      else open.testcase.properties[attributes.name] = attributes.value ?? "";
      return;
    }
    // Inside a testcase's outcome or a suite's properties: part of what is read or skipped as a whole.
    if (stack.slice(0, -1).some((e) => e in OUTCOME_ELEMENTS || TEXT_ELEMENTS.has(e) || RERUN_ELEMENTS.has(e) || e === "properties")) return;
    if (parent === "testcase" && !open) return;
    if (name === "properties" && parent === "testsuite") skip(tagLine, "the properties of a test suite are not kept");
    else if (name === "system-out" || name === "system-err") skip(tagLine, `<${name}> of a test suite is not kept (only a testcase's)`);
    else skip(tagLine, `<${name}> inside <${parent}> is not part of JUnit XML`);
  });
  const addText = (text: string) => {
    if (collecting && stack.at(-1) === collecting.element) collecting.text += text;
  };
  parser.on("text", addText);
  parser.on("cdata", addText);
  parser.on("closetag", (tag) => {
    stack.pop();
    if (collecting && tag.name === collecting.element && open) {
      const testcase = open.testcase;
      if (tag.name === "system-out") testcase.systemOut += collecting.text;
      else if (tag.name === "system-err") testcase.systemErr += collecting.text;
      else {
        testcase.details = collecting.text;
        testcase.message = open.messageAttribute?.trim() || firstLine(collecting.text);
      }
      collecting = null;
    } else if (tag.name === "testcase" && open) {
      report.testcases.push(open.testcase);
      open = null;
    } else if (tag.name === "testsuite") {
      suites.pop();
    }
  });

  try {
    parser.write(text).close();
  } catch (error) {
    if (!failed) throw error;
    return { testcases: [], skipped: report.skipped };
  }
  if (report.testcases.length === 0 && errors.empty) skip(1, "the file holds no testcase");
  const seen = new Map<string, number>();
  for (const testcase of report.testcases) {
    const first = seen.get(testcase.testId);
    if (first === undefined) seen.set(testcase.testId, testcase.at.line!);
    else errors.add(testcase.at, "name", `testcase "${testcase.testId}" is also at line ${first}: a test's outcome must be given once`);
  }
  return report;
}

/** A testcase's fields from its attributes; null (with an error) when it has no name. */
function caseOf(attributes: Record<string, string>, suites: string[], at: SourceLocation, errors: ErrorCollector, skip: (line: number, reason: string) => void): JunitTestCase | null {
  const name = attributes.name?.trim();
  if (!name) {
    errors.add(at, "name", "a testcase needs a name attribute");
    return null;
  }
  const classname = attributes.classname?.trim() || null;
  let durationSeconds: number | null = null;
  if (attributes.time !== undefined) {
    // Surefire has written times with thousands separators ("1,234.5").
    const time = Number(attributes.time.replaceAll(",", ""));
    if (attributes.time.trim() !== "" && Number.isFinite(time) && time >= 0) durationSeconds = time;
    else skip(at.line!, `the time "${attributes.time}" of testcase "${name}" is not a duration in seconds; its duration is left out`);
  }
  return {
    testId: classname ? `${classname}::${name}` : name,
    name,
    classname,
    file: attributes.file?.trim() || null,
    suites,
    status: "passed",
    durationSeconds,
    message: null,
    details: "",
    flaky: false,
    properties: {},
    systemOut: "",
    systemErr: "",
    at,
  };
}
