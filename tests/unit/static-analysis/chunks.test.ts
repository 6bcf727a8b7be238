/**
 * A chunk of code changes analyzed at once (one PMD run, one pylint, radon and PyScent process
 * for all its files) gives every change the findings, tallies and radon ranks that analyzing it
 * alone gives (on the fixtures' variants and on real changes of CRScore's phase-1 sheet, in
 * ../shared/data); and pylint's run of a change inside the chunk's process reports what the pylint
 * command reports on the change's files, but reads no library installed beside pylint. Real
 * analyzers (scripts/ensure-analyzers.sh).
 */
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { unifiedDiff } from "@/lib/diff";
import { analyzeChanges, type AnalyzerStatus, type ChangeAnalysis, type ChangeToAnalyze, detectAnalyzers, pylintFindings, PYLINT_ARGS } from "@/lib/static-analysis";
import { run } from "@/lib/static-analysis/exec";
import { runPylint } from "@/lib/static-analysis/pylint";
import { javaVariant, JS_CHANGE, pythonVariant } from "./fixtures";
import { requireTools } from "./require-tools";
import { hasSharedFile, sharedPath } from "../../shared-data";

let statuses: AnalyzerStatus[] = [];
let versions: Record<string, string> = {};
let dir = "";

beforeAll(async () => {
  statuses = await detectAnalyzers();
  versions = Object.fromEntries(statuses.flatMap((s) => (s.available ? [[s.tool, s.version]] : [])));
  dir = await mkdtemp(path.join(tmpdir(), "crjudge-chunks-test-"));
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

/** What a change's analysis says, without the tools' times. */
const results = (analysis: ChangeAnalysis) => ({
  findings: analysis.findings,
  tools: Object.fromEntries(Object.entries(analysis.tools).map(([tool, { found, existing, kept }]) => [tool, { found, existing, kept }])),
  radonRanks: analysis.radonRanks,
});

async function alone(changes: readonly ChangeToAnalyze[]) {
  const each: ReturnType<typeof results>[] = [];
  for (const change of changes) each.push(results((await analyzeChanges([change], versions))[0]));
  return each;
}

/**
 * The first `count` of CRScore's phase-1 Python changes (context_files/testN_old.py and
 * testN_new.py, as the crscore-phase1 import pairs them), all given the same path.
 */
function phase1Changes(count: number): ChangeToAnalyze[] {
  const dir = sharedPath("data", "crscore", "phase1", "context_files");
  const ids = readdirSync(dir).flatMap((name) => /^(test\d+)_new\.py$/.exec(name)?.[1] ?? []).sort().slice(0, count);
  return ids.map((id) => {
    const [oldFile, newFile] = ["old", "new"].map((side) => readFileSync(path.join(dir, `${id}_${side}.py`), "utf8"));
    return { language: "python", filePath: "module.py", oldFile, newFile, diff: unifiedDiff(oldFile, newFile, { path: "module.py" }) };
  });
}

describe("a chunk of changes analyzed at once", () => {
  test("Java (one PMD run): each change's findings as alone, in a chunk with JavaScript, a file that does not parse and files of the same path", async () => {
    if (!requireTools(statuses, "pmd", "jshint")) return;
    // Variants 0, 5 and 10 are all src/main/java/demo/Counter.java; 10 does not parse; 0 and 7 have no old file.
    const changes = [javaVariant(0), javaVariant(1), JS_CHANGE, javaVariant(10), javaVariant(3), javaVariant(5), javaVariant(7)];
    expect(new Set([0, 3, 5].map((k) => changes[k].filePath)).size).toBe(1);
    const chunk = (await analyzeChanges(changes, versions)).map(results);
    expect(chunk).toEqual(await alone(changes));
    // The variants' own smells are there: the chunk was really analyzed.
    expect(chunk[4].findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining(["ControlStatementBraces", "EmptyCatchBlock"]));
    expect(chunk[2].findings.map((f) => f.ruleId)).toEqual(["W033", "W033"]);
    // The file PMD cannot parse has no findings, and costs the others none, the same-path files after it included.
    expect(chunk[3].tools.pmd).toEqual({ found: 0, existing: 0, kept: 0 });
    expect(chunk[3].findings).toEqual([]);
    // Same path, each change its own findings: 0 added an empty catch block, 5 did not.
    expect(chunk[0].findings.map((f) => f.ruleId)).toContain("EmptyCatchBlock");
    expect(chunk[5].findings.map((f) => f.ruleId)).not.toContain("EmptyCatchBlock");
    expect(chunk[5].findings.map((f) => f.ruleId)).toContain("ControlStatementBraces");
  }, 600_000);

  test("Python (one pylint, radon and PyScent process each): each change's findings as alone, also after a change that writes into the standard library's modules", async () => {
    if (!requireTools(statuses, "pylint", "radon", "pyscent")) return;
    // Variants 0, 2 and 4 are all pkg/tools.py.
    const changes = [0, 1, 2, 4, 5].map(pythonVariant);
    const chunk = (await analyzeChanges(changes, versions)).map(results);
    expect(chunk).toEqual(await alone(changes));
    // Variant 1 reads the attributes variant 0 (just before it in the chunk) wrote: pylint finds them missing, as it does alone.
    expect(chunk[1].findings.filter((f) => f.ruleId === "E1101 no-member").map((f) => f.message)).toEqual(
      expect.arrayContaining(["Module 'posixpath' has no 'custom_0' member", "Class 'JSONDecoder' has no 'extra_0' member", "Instance of 'JSONDecoder' has no 'extra_0' member"]),
    );
    // Variant 5 does not parse: pylint says so, radon and PyScent find nothing in it.
    expect(chunk[4].findings.map((f) => f.ruleId)).toContain("E0001 syntax-error");
    expect(chunk[4].tools.radon).toEqual({ found: 0, existing: 0, kept: 0 });
  }, 600_000);

  test("CRScore's phase-1 Python changes (real files importing numpy, torch, ...): each change's findings as alone", async () => {
    if (!requireTools(statuses, "pylint", "radon", "pyscent") || !hasSharedFile("data", "crscore", "phase1", "context_files")) return;
    const changes = phase1Changes(5);
    const chunk = (await analyzeChanges(changes, versions)).map(results);
    expect(chunk).toEqual(await alone(changes));
    expect(chunk.every((c) => c.tools.pylint.found > 0)).toBe(true);
  }, 600_000);

  test("pylint's run of each change in the chunk's process reports what the pylint command reports", async () => {
    if (!requireTools(statuses, "pylint")) return;
    const groups: string[][] = [];
    for (const [i, change] of [0, 1, 2, 5].map(pythonVariant).entries()) {
      const files = [path.join(dir, String(i), "new", "tools.py"), path.join(dir, String(i), "old", "tools.py")];
      await Promise.all(files.map((f) => mkdir(path.dirname(f), { recursive: true })));
      await writeFile(files[0], change.newFile);
      await writeFile(files[1], change.oldFile);
      groups.push(files);
    }
    const chunk = await runPylint(groups, "test");
    for (const files of groups) {
      const command = await run("pylint", [...PYLINT_ARGS, ...files]);
      const expected = pylintFindings(JSON.parse(command.stdout), files, "test");
      for (const file of files) expect(chunk.get(file)).toEqual(expected.get(file));
    }
    expect(chunk.get(groups[1][0])!.some((f) => f.message === "Module 'posixpath' has no 'custom_0' member")).toBe(true);
  }, 600_000);

  test("pylint reads no library installed beside it: a change's findings are those of a machine without the library", async () => {
    if (!requireTools(statuses, "pylint")) return;
    const library = path.join(dir, "site-packages");
    await mkdir(path.join(library, "fakelib"), { recursive: true });
    await writeFile(path.join(library, "fakelib", "__init__.py"), "def helper(value):\n    return value\n");
    const file = path.join(dir, "library-user", "new", "tools.py");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '"""Uses fakelib."""\nimport fakelib\n\nfakelib.helper(1, 2)\nfakelib.missing()\n');
    const withLibrary = async <T>(work: () => Promise<T>) => {
      process.env.PYTHONPATH = library;
      try {
        return await work();
      } finally {
        delete process.env.PYTHONPATH;
      }
    };
    // The pylint command infers into the installed library...
    const command = await withLibrary(() => run("pylint", [...PYLINT_ARGS, file]));
    expect(pylintFindings(JSON.parse(command.stdout), [file], "test").get(file)!.map((f) => f.ruleId)).toEqual(["E1121 too-many-function-args", "E1101 no-member"]);
    // ... the product's run does not, and finds what it finds without the library.
    const installed = (await withLibrary(() => runPylint([[file]], "test"))).get(file);
    expect(installed).toEqual((await runPylint([[file]], "test")).get(file));
    expect(installed!.map((f) => f.ruleId)).toEqual([]);
  }, 600_000);
});
