import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { cli } from "./cli";
import { afterAll, describe, expect, test } from "vitest";



describe("import and export commands", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "crjudge-cli-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("import prints a JSON summary; a second run creates nothing; export writes the file", async () => {
    const first = await cli("import", "--study", "cli-example", "--format", "jsonl", "docs/examples/code-changes.jsonl");
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ status: "imported", study: { slug: "cli-example", created: true }, counts: { codeChanges: { created: 4 } } });
    const second = await cli("import", "--study", "cli-example", "--format", "jsonl", "--update", "docs/examples/code-changes.jsonl");
    expect(JSON.parse(second.stdout)).toMatchObject({ counts: { codeChanges: { created: 0, updated: 0, unchanged: 4 } } });

    const out = path.join(dir, "example.long.csv");
    const exported = await cli("export", "--study", "cli-example", "--format", "long", "--out", out);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ format: "long-csv", out });
    expect(readFileSync(out, "utf8").split("\r\n")[0]).toBe("task,codeChange,item,itemText,itemKind,system,question,annotatorId,annotator,value,createdAt,updatedAt,timeSpentMs,importedFrom,importedBy,importRun,status,submittedAt,consensus");
  }, 120_000);

  test("a refused import prints no summary and lists the errors on stderr", async () => {
    const bad = path.join(dir, "bad.jsonl");
    writeFileSync(bad, '{"id": "x", "language": "python"}\n');
    const result = await cli("import", "--study", "cli-bad", "--format", "jsonl", bad);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("import refused, nothing was written:\nbad.jsonl: line 1: diff: Invalid input: expected string, received undefined");
  }, 120_000);

  test("a renamed option is refused with its new name (--params is --signature), before any work", async () => {
    const scores = path.join(dir, "scores.csv");
    writeFileSync(scores, "review_id,metric,value\nnone,m,1\n");
    const refused = await cli("import-scores", "--study", "cli-no-such-study", "--params", "v1", scores);
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toMatch(/^The option --params is now --signature\nUsage: npm run cli -- import-scores --study SLUG .*--signature S/);
  }, 120_000);

  test("the agreement report's --batch-size is refused naming --window-size, before any work", async () => {
    const refused = await cli("agreement", "--study", "cli-no-such-study", "--batch-size", "10");
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toMatch(/^The option --batch-size is now --window-size\nUsage: npm run cli -- agreement --study SLUG .*\[--window-size N\]/);
  }, 120_000);

  test("the retired command correlate is refused naming validity, before any work", async () => {
    const retired = "correlate";
    const refused = await cli(retired, "--study", "cli-no-such-study", "--metric", "bleu", "--human", "grade");
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toBe('The command "correlate" is now "validity": npm run cli -- validity\n');
  }, 120_000);

  test("a renamed option value is refused with its new value (--level segment is --level review), before any work", async () => {
    const refused = await cli("validity", "--study", "cli-no-such-study", "--metric", "bleu", "--human", "grade", "--level", "segment");
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toMatch(/^The option --level segment is now --level review\nUsage: npm run cli -- validity --study SLUG .*\[--level review\|system\]/);
  }, 120_000);

  test("an option the command does not know is refused, not ignored; --skip-invalid-rows imports the valid lines and lists the others", async () => {
    const typo = await cli("agreement", "--study", "cli-example", "--itemz", "ids.txt");
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^Error: Unknown option --itemz; this command takes --study, /);
    // --help is the usage line, on stdout, and no error.
    expect(await cli("agreement", "--help")).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: npm run cli -- agreement --study SLUG /), stderr: "" });
    const mixed = path.join(dir, "mixed.jsonl");
    writeFileSync(mixed, '{"id": "ok", "language": "python", "diff": ""}\n{"id": "x", "language": "python"}\n');
    const result = await cli("import", "--study", "cli-lenient", "--format", "jsonl", "--skip-invalid-rows", mixed);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ counts: { codeChanges: { created: 1 } }, skippedRows: [{ file: "mixed.jsonl", line: 2, field: "diff" }] });
  }, 120_000);
});
