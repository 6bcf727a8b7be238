/**
 * Small code changes for the analyzer tests, each with a few smells its language's analyzers
 * are known to report, introduced by the change, and one that the old file already had.
 */
import { unifiedDiff } from "@/lib/diff";
import type { ChangeToAnalyze } from "@/lib/static-analysis";

const change = (language: ChangeToAnalyze["language"], filePath: string, oldFile: string, newFile: string): ChangeToAnalyze => ({
  language,
  filePath,
  oldFile,
  newFile,
  diff: unifiedDiff(oldFile, newFile, { path: filePath }),
});

export const JS_CHANGE = change(
  "javascript",
  "src/sum.js",
  ["function sum(a, b) {", "  return a + b", "}", ""].join("\n"),
  ["function sum(a, b) {", "  return a + b", "}", "", "function twice(x) {", "  var y = x * 2", "  return y == 4", "}", ""].join("\n"),
);

export const JAVA_CHANGE = change(
  "java",
  "src/main/java/demo/Counter.java",
  ["package demo;", "", "public class Counter {", "    public int count(int a) {", "        return a;", "    }", "}", ""].join("\n"),
  [
    "package demo;",
    "",
    "public class Counter {",
    "    public int count(int a) {",
    "        int unused = 3;",
    "        if (a > 1) return 1;",
    "        return a;",
    "    }",
    "}",
    "",
  ].join("\n"),
);

const complexBody = Array.from({ length: 12 }, (_, i) => `    if x == ${i}:\n        return ${i}`).join("\n");

export const PYTHON_CHANGE = change(
  "python",
  "pkg/tools.py",
  ['"""Tools."""', "", "", "def keep(value):", '    """Keep."""', "    return value", ""].join("\n"),
  [
    '"""Tools."""',
    "",
    "",
    "def keep(value):",
    '    """Keep."""',
    "    return value",
    "",
    "",
    "def configure(alpha, beta, gamma, delta, epsilon, zeta, eta):",
    '    """Configure."""',
    "    scale = lambda value: value * alpha + beta * gamma - delta / epsilon + zeta ** eta + alpha",
    "    try:",
    "        return scale(1)",
    "    except ValueError:",
    "        pass",
    "    return None",
    "",
    "",
    "def classify(x):",
    '    """Classify."""',
    complexBody,
    "    return -1",
    "",
  ].join("\n"),
);

/**
 * The Java change again with variations (for chunks of changes): its constants change with `i`,
 * every third variant adds an empty catch block, every fifth keeps its file name Counter.java
 * (the others are Counter<i>.java), every seventh has no old file (a new file), every eleventh
 * does not parse (a method's parameter list is left open).
 */
export function javaVariant(i: number): ChangeToAnalyze {
  const name = i % 5 === 0 ? "Counter" : `Counter${i}`;
  const body = (extra: string[]) => ["package demo;", "", `public class ${name} {`, "    public int count(int a) {", ...extra, "        return a;", "    }", "}", ""].join("\n");
  const added = [`        int unused = ${i};`, `        if (a > ${i + 1}) return ${i};`];
  if (i % 3 === 0) added.push("        try {", "            a = Integer.parseInt(\"1\");", "        } catch (NumberFormatException e) {", "        }");
  if (i % 11 === 10) added.push("    }", "    public int broken(int b {", "        return b;");
  return change("java", `src/main/java/demo/${name}.java`, i % 7 === 0 ? "" : body([]), body(added));
}

/**
 * The Python change again with variations: its constants change with `i`; every fourth variant
 * writes attributes into modules and classes of the standard library (os.path, json.JSONDecoder)
 * and the next one reads them, so a variant analyzed after its predecessor finds what it finds
 * alone only when one change's lint leaves nothing behind for the next; every sixth does not
 * parse.
 */
export function pythonVariant(i: number): ChangeToAnalyze {
  const old = PYTHON_CHANGE.oldFile;
  const lines = PYTHON_CHANGE.newFile.replace("value * alpha", `value * ${i + 2} * alpha`).replace("return -1", `return -${i}`).split("\n");
  if (i % 4 === 0) lines.push("import os", "import json", "", `os.path.custom_${i % 8} = ${i}`, `json.JSONDecoder.extra_${i % 8} = ${i}`, "");
  if (i % 4 === 1) lines.push("import os", "import json", "", `print(os.path.custom_${(i - 1) % 8}, json.JSONDecoder.extra_${(i - 1) % 8}, json.JSONDecoder().extra_${(i - 1) % 8})`, "");
  if (i % 6 === 5) lines.push("def broken(:", "    pass", "");
  return change("python", i % 2 === 0 ? "pkg/tools.py" : `pkg/tools_${i}.py`, old, lines.join("\n"));
}
