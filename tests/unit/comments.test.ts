/**
 * Comments cite what a reader of the repository can open (docs/architecture.md; the papers'
 * sections, tables and equations, and files under docs/): never an issue or pull-request number,
 * nor a file outside the repository. The papers' data (../shared) may be named only where it is
 * read: tests, browser tests and benchmarks, never the product's own code.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Source files under `dir`, relative to the root (generated code left out). */
function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const file = `${dir}/${name}`;
    if (statSync(path.join(ROOT, file)).isDirectory()) return file === "lib/generated" || name === "node_modules" ? [] : sources(file);
    return /\.(tsx?|mjs)$/.test(name) ? [file] : [];
  });
}

/** The comments of a source: block comments and line comments (a `//` inside a string or URL left out). */
function comments(source: string): string[] {
  return [...source.matchAll(/\/\*[\s\S]*?\*\/|(?:^|[^:"'`\\])(\/\/[^\n]*)/g)].map((m) => m[1] ?? m[0]);
}

const EVERYWHERE: [RegExp, string][] = [
  [/\bissues?\s+#?\d+/i, "an issue number"],
  [/\b(?:PR|pull request)\s+#\d+/i, "a pull-request number"],
  [/\bmetrics-spec\b/i, "a file outside the repository"],
  [/(?:^|[\s(`"'])\/(?:work|home|tmp)\//, "an absolute path outside the repository"],
];
const PRODUCT: [RegExp, string][] = [[/\.\.\/shared\b/, "a file outside the repository (the product does not read ../shared)"]];

/** What a file's comments cite that a reader cannot open, as "file: why: comment". */
function problems(file: string, source: string): string[] {
  const rules = /^(lib|app|components)\//.test(file) ? [...EVERYWHERE, ...PRODUCT] : EVERYWHERE;
  return comments(source).flatMap((comment) => rules.filter(([pattern]) => pattern.test(comment)).map(([, why]) => `${file}: ${why}: ${comment.trim().slice(0, 120)}`));
}

describe("comments", () => {
  test("cite only what a reader of the repository can open", () => {
    // This file's own examples are strings, which the comment reader cannot tell apart.
    const files = ["lib", "app", "components", "scripts", "e2e", "tests"].flatMap(sources).filter((file) => file !== "tests/unit/comments.test.ts");
    expect(files.length).toBeGreaterThan(300);
    expect(files.flatMap((file) => problems(file, readFileSync(path.join(ROOT, file), "utf8")))).toEqual([]);
  });

  test("the check finds issue numbers, outside files and ../shared in the product's comments", () => {
    const source = `/** As issue 12 asked (metrics-spec §3). */\nconst a = 1; // see PR #7\nconst url = "http://x/issue 4";\n// Cephes expansion #1\n`;
    expect(problems("lib/x.ts", source)).toEqual([
      "lib/x.ts: an issue number: /** As issue 12 asked (metrics-spec §3). */",
      "lib/x.ts: a file outside the repository: /** As issue 12 asked (metrics-spec §3). */",
      "lib/x.ts: a pull-request number: // see PR #7",
    ]);
    expect(problems("lib/y.ts", "// the reference vectors in ../shared/reference\n")).toHaveLength(1);
    expect(problems("tests/unit/y.test.ts", "// the reference vectors in ../shared/reference\n")).toEqual([]);
    expect(problems("scripts/y.ts", "/* written to /work/helpers/x */\n")).toEqual(["scripts/y.ts: an absolute path outside the repository: /* written to /work/helpers/x */"]);
  });
});
