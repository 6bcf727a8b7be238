/**
 * The PyScent detectors measure a lambda's and a list comprehension's length on its source text
 * as `ast.get_source_segment` gives it (PyScent's own measure), although they split each file into
 * lines only once: on a file whose lines hold characters str.splitlines() would also break at
 * (form feed, vertical tab, U+2028, NEL), multi-byte characters and constructs over several lines.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type AnalyzerStatus, detectAnalyzers, PYSCENT_LIMITS } from "@/lib/static-analysis";
import { run } from "@/lib/static-analysis/exec";
import { runPyscent } from "@/lib/static-analysis/pyscent";
import { requireTools } from "./require-tools";

let statuses: AnalyzerStatus[] = [];
let dir = "";

beforeAll(async () => {
  statuses = await detectAnalyzers(["python"]);
  dir = await mkdtemp(path.join(tmpdir(), "crjudge-pyscent-test-"));
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

const SOURCE = [
  "\fimport os",
  'NOTE = "a\vb\u2028c\x85d"  # é, 日本',
  "short = lambda x: x",
  "names = [n.upper() for n in sorted(os.listdir('.')) if not n.startswith('.') and n.endswith('.py')]",
  "pick = lambda items, key='日本語のキー', default=None: next((i for i in items if key in i), default)",
  "grid = [(row, column, '\u2028') for row in range(10)",
  "        for column in range(10) if (row + column) % 2 == 0 and row != column]",
  "handler = (lambda event, context:",
  "    {'status': 200, 'body': str(event) + str(context) + 'é' * 3})",
  "",
].join("\n");

test("long lambdas and list comprehensions: the lengths of ast.get_source_segment, on the lines they start at", async () => {
  if (!requireTools(statuses, "pyscent")) return;
  const file = path.join(dir, "segments.py");
  await writeFile(file, SOURCE);
  const measured = await run("python3", [
    "-c",
    "import ast, json, sys\nsource = open(sys.argv[1], encoding='utf-8').read()\nprint(json.dumps([[type(n).__name__, n.lineno, len(ast.get_source_segment(source, n))] for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Lambda, ast.ListComp))]))",
    file,
  ]);
  const limits: Record<string, [string, number]> = { Lambda: ["long-lambda", PYSCENT_LIMITS.lambdaChars], ListComp: ["long-list-comprehension", PYSCENT_LIMITS.listCompChars] };
  const expected = (JSON.parse(measured.stdout) as [string, number, number][]).flatMap(([type, line, length]) => (length > limits[type][1] ? [{ ruleId: limits[type][0], line, length }] : []));
  const found = (await runPyscent([file])).get(file)!.flatMap((f) => (f.ruleId.startsWith("long-l") ? [{ ruleId: f.ruleId, line: f.line, length: f.facts?.length }] : []));
  const byLine = (a: { line: number }, b: { line: number }) => a.line - b.line;
  expect(found.sort(byLine)).toEqual(expected.sort(byLine));
  // Every long one was found: the two lambdas and the two comprehensions after line 2's breaks.
  expect(found.map((f) => f.line)).toEqual([4, 5, 6, 8]);
});
