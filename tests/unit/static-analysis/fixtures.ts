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
