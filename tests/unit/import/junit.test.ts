/**
 * JUnit XML as each runner writes it (lib/import/junit.ts). The fixtures follow the runners'
 * documented output: pytest's `--junitxml` (junit_family xunit1 and xunit2), jest-junit's
 * defaults and `addFileAttribute`, Maven Surefire's TEST-*.xml (surefire-test-report-3.0.xsd),
 * go-junit-report v2 and gotestsum's `--junitfile`.
 */
import { describe, expect, test } from "vitest";
import { ErrorCollector } from "@/lib/import/errors";
import { parseJunitXml } from "@/lib/import/junit";

function parse(text: string, file = "results.xml") {
  const errors = new ErrorCollector();
  const report = parseJunitXml(text, file, errors);
  return { ...report, errors: errors.all };
}

const PYTEST = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="1" failures="1" skipped="1" tests="4" time="0.051" timestamp="2026-03-01T10:00:00.000000" hostname="ci"><testcase classname="tests.test_retry" name="test_retries_three_times" file="tests/test_retry.py" line="3" time="0.001"><properties><property name="comment" value="c4" /></properties></testcase><testcase classname="tests.test_retry" name="test_backoff[2]" file="tests/test_retry.py" line="9" time="0.002"><failure message="assert 1 == 2&#10; +  where 1 = backoff(2)">def test_backoff():
&gt;       assert backoff(2) == 2
E       assert 1 == 2

tests/test_retry.py:11: AssertionError</failure><system-out>retrying…</system-out></testcase><testcase classname="tests.test_retry" name="test_db" time="0.000"><skipped type="pytest.skip" message="no database">tests/test_retry.py:14: no database</skipped></testcase><testcase classname="tests.test_retry" name="test_setup" time="0.000"><error message="failed on setup with &quot;fixture 'db' not found&quot;">file tests/test_retry.py, line 17</error></testcase></testsuite></testsuites>`;

const JEST = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="3" failures="1" errors="0" time="0.512">
  <testsuite name="retry" errors="0" failures="1" skipped="1" timestamp="2026-03-01T10:00:00" time="0.31" tests="3">
    <testcase classname="retry retries three times" name="retry retries three times" time="0.002" file="src/retry.test.js">
    </testcase>
    <testcase classname="retry gives up &lt;after&gt; 5 s" name="retry gives up &lt;after&gt; 5 s" time="0.004" file="src/retry.test.js">
      <failure>Error: expect(received).toBe(expected) // Object.is equality

Expected: 5000
Received: 3000
    at Object.toBe (src/retry.test.js:12:20)</failure>
    </testcase>
    <testcase classname="retry todo" name="retry todo" time="0">
      <skipped/>
    </testcase>
  </testsuite>
</testsuites>
`;

const SUREFIRE = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="https://maven.apache.org/surefire/maven-surefire-plugin/xsd/surefire-test-report-3.0.xsd" version="3.0" name="com.acme.RetryTest" time="1,234.5" tests="4" errors="1" skipped="1" failures="0">
  <properties>
    <property name="java.version" value="17.0.9"/>
    <property name="file.encoding" value="UTF-8"/>
  </properties>
  <testcase name="retriesThreeTimes" classname="com.acme.RetryTest" time="1,234.5"/>
  <testcase name="throwsOnNull" classname="com.acme.RetryTest" time="0.002">
    <error message="boom" type="java.lang.IllegalStateException"><![CDATA[java.lang.IllegalStateException: boom
	at com.acme.Retry.run(Retry.java:42)]]></error>
    <system-out><![CDATA[attempt 1 <ok> & done]]></system-out>
    <system-err><![CDATA[warning]]></system-err>
  </testcase>
  <testcase name="ignored" classname="com.acme.RetryTest" time="0"><skipped message="not yet"/></testcase>
  <testcase name="flaky" classname="com.acme.RetryTest" time="0.1">
    <flakyFailure message="timeout" type="java.util.concurrent.TimeoutException"><stackTrace><![CDATA[TimeoutException]]></stackTrace></flakyFailure>
  </testcase>
</testsuite>
`;

const GO_JUNIT_REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="3" failures="1" skipped="1">
	<testsuite name="github.com/acme/retry" tests="3" failures="1" errors="0" id="0" hostname="ci" skipped="1" time="0.010" timestamp="2026-03-01T10:00:00Z">
		<properties>
			<property name="go.version" value="go1.22.1 linux/amd64"></property>
		</properties>
		<testcase name="TestRetry" classname="github.com/acme/retry" time="0.000"></testcase>
		<testcase name="TestRetry/backoff" classname="github.com/acme/retry" time="0.000">
			<failure message="Failed"><![CDATA[    retry_test.go:12: got 1, want 2]]></failure>
		</testcase>
		<testcase name="TestSlow" classname="github.com/acme/retry" time="0.000">
			<skipped message="Skipped"><![CDATA[    retry_test.go:20: short mode]]></skipped>
		</testcase>
		<system-out><![CDATA[ok]]></system-out>
	</testsuite>
</testsuites>
`;

const GOTESTSUM = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="2" failures="1" errors="0" time="0.5">
	<testsuite tests="2" failures="1" time="0.010" name="github.com/acme/retry" timestamp="2026-03-01T10:00:00Z">
		<properties>
			<property name="go.version" value="go1.22.1 linux/amd64"></property>
		</properties>
		<testcase classname="github.com/acme/retry" name="TestRetry" time="0.000"></testcase>
		<testcase classname="github.com/acme/retry" name="TestFail" time="0.010">
			<failure message="Failed" type="">=== RUN   TestFail&#xA;    retry_test.go:12: got 1&#xA;--- FAIL: TestFail (0.01s)&#xA;</failure>
		</testcase>
	</testsuite>
</testsuites>
`;

describe("each runner's JUnit XML", () => {
  test("pytest: class names, files, properties, output, entities in messages; every status", () => {
    const { testcases, skipped, errors } = parse(PYTEST);
    expect(errors).toEqual([]);
    expect(skipped).toEqual([]);
    expect(testcases.map((t) => [t.testId, t.status, t.durationSeconds])).toEqual([
      ["tests.test_retry::test_retries_three_times", "passed", 0.001],
      ["tests.test_retry::test_backoff[2]", "failed", 0.002],
      ["tests.test_retry::test_db", "skipped", 0],
      ["tests.test_retry::test_setup", "error", 0],
    ]);
    const [passed, failed, skip, error] = testcases;
    expect(passed.file).toBe("tests/test_retry.py");
    expect(passed.suites).toEqual(["pytest"]);
    expect(passed.properties).toEqual({ comment: "c4" });
    expect(failed.message).toBe("assert 1 == 2\n +  where 1 = backoff(2)");
    expect(failed.details).toContain(">       assert backoff(2) == 2");
    expect(failed.systemOut).toBe("retrying…");
    expect(skip.message).toBe("no database");
    expect(skip.file).toBeNull();
    expect(error.message).toBe(`failed on setup with "fixture 'db' not found"`);
  });

  test("Jest (jest-junit): a failure without a message takes its text's first line; an empty skipped; escaped names", () => {
    const { testcases, errors } = parse(JEST);
    expect(errors).toEqual([]);
    expect(testcases.map((t) => t.status)).toEqual(["passed", "failed", "skipped"]);
    expect(testcases[1].name).toBe("retry gives up <after> 5 s");
    expect(testcases[1].message).toBe("Error: expect(received).toBe(expected) // Object.is equality");
    expect(testcases[1].details).toContain("Received: 3000");
    expect(testcases[1].file).toBe("src/retry.test.js");
    expect(testcases[2].message).toBeNull();
    expect(testcases[2].file).toBeNull();
    expect(testcases.every((t) => t.at.line !== undefined && t.at.file === "results.xml")).toBe(true);
    expect(testcases.map((t) => t.at.line)).toEqual([4, 6, 13]);
  });

  test("Maven Surefire: a testsuite root, CDATA, stdout and stderr, flaky tests pass, the suite's properties and a comma time are reported", () => {
    const { testcases, skipped, errors } = parse(SUREFIRE, "TEST-com.acme.RetryTest.xml");
    expect(errors).toEqual([]);
    expect(testcases.map((t) => [t.testId, t.status, t.flaky])).toEqual([
      ["com.acme.RetryTest::retriesThreeTimes", "passed", false],
      ["com.acme.RetryTest::throwsOnNull", "error", false],
      ["com.acme.RetryTest::ignored", "skipped", false],
      ["com.acme.RetryTest::flaky", "passed", true],
    ]);
    expect(testcases[0].durationSeconds).toBe(1234.5);
    expect(testcases[1].message).toBe("boom");
    expect(testcases[1].details).toBe("java.lang.IllegalStateException: boom\n\tat com.acme.Retry.run(Retry.java:42)");
    expect(testcases[1].systemOut).toBe("attempt 1 <ok> & done");
    expect(testcases[1].systemErr).toBe("warning");
    expect(testcases[2].message).toBe("not yet");
    expect(testcases[3].message).toBeNull();
    expect(skipped).toEqual([{ file: "TEST-com.acme.RetryTest.xml", line: 3, reason: "the properties of a test suite are not kept" }]);
  });

  test("go-junit-report: subtests by name, the suite's output reported as left out", () => {
    const { testcases, skipped, errors } = parse(GO_JUNIT_REPORT);
    expect(errors).toEqual([]);
    expect(testcases.map((t) => [t.testId, t.status, t.message])).toEqual([
      ["github.com/acme/retry::TestRetry", "passed", null],
      ["github.com/acme/retry::TestRetry/backoff", "failed", "Failed"],
      ["github.com/acme/retry::TestSlow", "skipped", "Skipped"],
    ]);
    expect(testcases[1].details).toBe("    retry_test.go:12: got 1, want 2");
    expect(skipped.map((s) => [s.line, s.reason])).toEqual([
      [4, "the properties of a test suite are not kept"],
      [14, "<system-out> of a test suite is not kept (only a testcase's)"],
    ]);
  });

  test("gotestsum: character references as line breaks", () => {
    const { testcases, errors } = parse(GOTESTSUM);
    expect(errors).toEqual([]);
    expect(testcases[1].status).toBe("failed");
    expect(testcases[1].details).toBe("=== RUN   TestFail\n    retry_test.go:12: got 1\n--- FAIL: TestFail (0.01s)\n");
    expect(testcases[1].durationSeconds).toBe(0.01);
  });
});

describe("the format's edges", () => {
  test("nested test suites give each test its suites' names; a byte-order mark and CRLF line ends are read", () => {
    const xml = "\uFEFF<?xml version=\"1.0\"?>\r\n<testsuites>\r\n<testsuite name=\"all\">\r\n<testsuite name=\"unit\">\r\n<testcase name=\"a\"/>\r\n</testsuite>\r\n<testcase name=\"b\" classname=\"B\"/>\r\n</testsuite>\r\n</testsuites>\r\n";
    const { testcases, errors } = parse(xml);
    expect(errors).toEqual([]);
    expect(testcases.map((t) => [t.testId, t.suites, t.at.line])).toEqual([
      ["a", ["all", "unit"], 5],
      ["B::b", ["all"], 7],
    ]);
  });

  test("only a testcase's name is needed: no class name, time or file", () => {
    const { testcases, errors } = parse(`<testsuite><testcase name="only"/></testsuite>`);
    expect(errors).toEqual([]);
    expect(testcases).toMatchObject([{ testId: "only", classname: null, durationSeconds: null, file: null, suites: [""], status: "passed" }]);
  });

  test("an error outranks a failure, a failure a skip, whatever their order", () => {
    const { testcases } = parse(`<testsuite name="s"><testcase name="t"><skipped/><failure message="f"/><error message="e"/><failure message="g"/></testcase></testsuite>`);
    expect(testcases[0].status).toBe("error");
    expect(testcases[0].message).toBe("e");
  });

  test("unknown elements, an unparsable time and a property without a name are reported as left out", () => {
    const xml = `<testsuites>\n<testsuite name="s">\n<testcase name="t" time="fast">\n<properties><property value="x"/></properties>\n<attachment>a.png</attachment>\n</testcase>\n<extra/>\n</testsuite>\n</testsuites>`;
    const { testcases, skipped, errors } = parse(xml, "r.xml");
    expect(errors).toEqual([]);
    expect(testcases).toHaveLength(1);
    expect(testcases[0].durationSeconds).toBeNull();
    expect(skipped).toEqual([
      { file: "r.xml", line: 3, reason: `the time "fast" of testcase "t" is not a duration in seconds; its duration is left out` },
      { file: "r.xml", line: 4, reason: "a property without a name" },
      { file: "r.xml", line: 5, reason: "<attachment> inside <testcase> is not part of JUnit XML" },
      { file: "r.xml", line: 7, reason: "<extra> inside <testsuite> is not part of JUnit XML" },
    ]);
  });

  test("a file without tests is reported, not an error", () => {
    const { testcases, skipped, errors } = parse(`<testsuites/>`, "empty.xml");
    expect(errors).toEqual([]);
    expect(testcases).toEqual([]);
    expect(skipped).toEqual([{ file: "empty.xml", line: 1, reason: "the file holds no testcase" }]);
  });
});

describe("errors name the file, line and why", () => {
  test("XML that is not well-formed: the line of the fault, and no test is kept", () => {
    const { testcases, errors } = parse(`<testsuite name="s">\n<testcase name="a"/>\n<testcase name="b">\n</testsuite>`, "broken.xml");
    expect(testcases).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: "broken.xml", line: 4 });
    expect(errors[0].message).toMatch(/^not well-formed XML: /);
  });

  test("an unknown entity and a truncated file", () => {
    expect(parse(`<testsuite>\n<testcase name="&nbsp;"/></testsuite>`).errors[0]).toMatchObject({ line: 2, message: "not well-formed XML: undefined entity." });
    expect(parse(`<testsuite>\n<testcase name="a"/>\n`).errors[0].message).toMatch(/^not well-formed XML: /);
  });

  test("another root element is not JUnit XML", () => {
    expect(parse(`<?xml version="1.0"?>\n<html><body/></html>`, "page.html").errors).toEqual([
      { file: "page.html", line: 2, message: "the root element is <html>, not <testsuites> or <testsuite>: not a JUnit XML file" },
    ]);
  });

  test("a testcase without a name, and a test given twice", () => {
    const { errors } = parse(`<testsuite>\n<testcase classname="C"/>\n<testcase classname="C" name="x"/>\n<testcase classname="C" name="x"/>\n</testsuite>`, "r.xml");
    expect(errors).toEqual([
      { file: "r.xml", line: 2, field: "name", message: "a testcase needs a name attribute" },
      { file: "r.xml", line: 4, field: "name", message: `testcase "C::x" is also at line 3: a test's outcome must be given once` },
    ]);
  });
});
