import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import core from "highlight.js/lib/core";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import typescript from "highlight.js/lib/languages/typescript";
import { describe, expect, test } from "vitest";
import { escapeHtml, highlightLines, languageOf } from "@/components/diff-view/highlight";
import { buildFileModels, fileLines } from "@/components/diff-view/model";
import { unifiedDiff } from "@/lib/diff";
import { hasSharedFile, sharedPath } from "../../shared-data";

/** highlight.js as it renders by default (its token tree, then HTML), each line balanced: what the highlighter must give. */
const reference = core.newInstance();
for (const [name, language] of Object.entries({ c, cpp, csharp, go, java, javascript, php, python, ruby, typescript })) reference.registerLanguage(name, language);
reference.configure({ classPrefix: "tk-" });

/** Cuts HTML into lines, closing the spans open at a line's end and reopening them on the next. */
function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = "";
  let last = 0;
  const tag = /<span[^>]*>|<\/span>|\n/g;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    line += html.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === "\n") {
      lines.push(line + "</span>".repeat(open.length));
      line = open.join("");
    } else {
      if (m[0] === "</span>") open.pop();
      else open.push(m[0]);
      line += m[0];
    }
  }
  lines.push(line + html.slice(last));
  return lines;
}

const referenceLines = (text: string, language: string) => splitHighlightedLines(reference.highlight(text, { language, ignoreIllegals: true }).value);

/** Whole files with constructs that span lines (block comments, template and raw strings, heredocs, docstrings), per language. */
const FILES: [string, string[]][] = [
  ["c", ["/* A counter.", " * Spans lines. */", "#include <stdio.h>", "#define TWICE(x) \\", "  ((x) * 2)", 'static const char *s = "a\\"b";', "int main(void) {", "  // done", '  return printf("%d\\n", TWICE(1));', "}"]],
  ["cpp", ["#include <vector>", "/** Doc", " * @param v values */", "template <typename T> auto sum(const std::vector<T>& v) -> T {", '  auto raw = R"(line one', 'line "two")";', "  return T{};", "}"]],
  ["csharp", ["/// <summary>Doc</summary>", "public class A<T> where T : new() {", '  string s = @"verbatim', '  ""quoted"" line";', '  string t = $"{s.Length} items";', "  /* block", "     comment */ int n = 0x1F;", "}"]],
  ["go", ["package main", "", 'import "fmt"', "", "/* block", "comment */", "func main() {", "\traw := `raw", "string ${x}`", "\tfmt.Println(raw, 1.5e3) // done", "}"]],
  ["java", ["package demo;", "", "/**", " * Javadoc {@link Other}.", " */", "@Deprecated", "public class A extends B implements C {", '  String s = """', '      text block "quoted"', '      """;', "  public int f(int a) { return a > 1 ? 0x1F : 'c'; }", "}"]],
  ["javascript", ["/* start", " * still */", "const f = async (a, b = 1) => {", "  const t = `sum ${a + `nested ${b}`}", "second line`;", "  return /ab+c/gi.test(t) ? 'yes' : \"no\";", "};", "class K extends Object { static #x = 1; get y() { return this.#x; } }", "export default f;"]],
  ["php", ["<?php", "namespace App;", "/**", " * Doc", " */", "function f($x) {", "  $s = <<<EOT", "heredoc $x", "EOT;", "  return \"a {$x} b\" . 'c'; # hash", "}", "?>", "<p>html</p>"]],
  ["python", ['"""Module doc', 'spanning lines."""', "import os", "", "", "@decorator(1)", "class A(object):", "    '''Class doc", "    def not_code'''", "", "    def f(self, x: int = 0x1F) -> str:", '        s = f"{x!r} and {os.sep}"', '        return r"raw\\n" + s  # done']],
  ["ruby", ["# frozen_string_literal: true", "=begin", "block comment", "=end", "class A < B", "  def f(x)", "    s = <<~EOS", "      heredoc #{x}", "    EOS", '    %w[a b].map { |y| "#{y}!" } if x =~ /re/', "  end", "end"]],
  ["typescript", ["/**", " * Doc comment.", " */", "interface A<T> { b: T; readonly c?: string }", "export function g<T>(a: A<T>): string {", '  const t = `multi', 'line ${a.c ?? ""}`;', "  return t as string; // cast", "}", "enum E { X = 1 }"]],
];

const strip = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&");
const token = (cls: string, text: string) => `<span class="tk-${cls}">${escapeHtml(text).replace(/'/g, "&#x27;")}</span>`;

/** Per language: a snippet (as the data sets name the language), a keyword in it, and a string or comment. */
const SNIPPETS: [string, string, string, [string, string]][] = [
  ["c", `#include <stdio.h>\nint main(void) { return printf("hi"); }`, "return", ["string", `"hi"`]],
  ["cpp", `// entry point\nauto main() -> int { return 0; }`, "return", ["comment", "// entry point"]],
  [".cs", `public class A { string s = "x"; }`, "public", ["string", `"x"`]],
  ["go", `func main() { fmt.Println("hi") } // done`, "func", ["comment", "// done"]],
  ["java", `public static void main(String[] a) { String s = "hi"; }`, "static", ["string", `"hi"`]],
  ["js", `const f = () => 'x'; // arrow`, "const", ["comment", "// arrow"]],
  ["php", `<?php\nfunction f() { return 'x'; }`, "function", ["string", "'x'"]],
  ["py", `def f(x):\n    return "x"  # done`, "def", ["comment", "# done"]],
  ["rb", `def f\n  puts "hi" # say\nend`, "def", ["comment", "# say"]],
  ["ts", `interface A { b: string }\nlet c: A = { b: "d" };`, "interface", ["string", `"d"`]],
];

describe("highlighter (highlight.js)", () => {
  test.each(SNIPPETS)("%s: keyword and string/comment tokens", (language, snippet, keyword, [cls, text]) => {
    const lang = languageOf(language);
    expect(lang).not.toBeNull();
    const lines = snippet.split("\n");
    const html = highlightLines(lines, lang);
    expect(html).toHaveLength(lines.length);
    expect(html.join("\n")).toContain(token("keyword", keyword));
    expect(html.join("\n")).toContain(token(cls, text));
    html.forEach((line, i) => expect(strip(line)).toBe(lines[i]));
  });

  test("language from the stored name (data-set spellings), else the file's extension", () => {
    expect(languageOf("Python")).toBe("python");
    expect(languageOf(".cs")).toBe("cs");
    expect(languageOf("c_sharp")).toBe("c_sharp");
    expect(languageOf("C++")).toBe("c++");
    expect(languageOf("unknown", "src/app/main.go")).toBe("go");
    expect(languageOf("", "lib/x.rb")).toBe("rb");
    expect(languageOf("", "include/vec.hpp")).toBe("hpp");
    expect(languageOf("kotlin", "Main.kt")).toBeNull();
    expect(highlightLines(["fun main() = 1 < 2"], null)).toEqual(["fun main() = 1 &lt; 2"]);
  });

  test("multi-line block comments and strings: every line balanced, the inside lines coloured", () => {
    const js = highlightLines(["/* start", "if (x) still comment", "end */ if (y) {}"], "javascript");
    expect(js[0]).toBe(token("comment", "/* start"));
    expect(js[1]).toBe(token("comment", "if (x) still comment"));
    expect(js[2]).toContain(token("comment", "end */"));
    expect(js[2]).toContain(token("keyword", "if"));
    const py = highlightLines(['x = """doc', "def not_code", 'end"""', "def g(): pass"], "python");
    expect(py[1]).toBe(token("string", "def not_code"));
    expect(py[3]).toContain(token("keyword", "def"));
    for (const line of [...js, ...py]) expect(line.match(/<span/g)?.length ?? 0).toBe(line.match(/<\/span>/g)?.length ?? 0);
  });

  test.each(FILES)("%s: a whole file gives the tokens of highlight.js's own rendering, line by line", (language, lines) => {
    const html = highlightLines(lines, language);
    expect(html).toEqual(referenceLines(lines.join("\n"), language));
    expect(html.join("\n")).toMatch(/tk-comment|tk-string/);
  });

  test("real files give highlight.js's tokens: CRScore's Python context files, TypeScript and JavaScript sources", () => {
    const files: [string, string][] = [
      ["typescript", readFileSync("components/diff-view/model.ts", "utf8")],
      ["typescript", readFileSync("tests/unit/annotation/highlight.test.ts", "utf8")],
      ["javascript", readFileSync("node_modules/highlight.js/lib/core.js", "utf8")],
    ];
    if (hasSharedFile("data", "crscore", "phase1", "context_files")) {
      const dir = sharedPath("data", "crscore", "phase1", "context_files");
      for (const name of readdirSync(dir).sort().slice(0, 40)) files.push(["python", readFileSync(path.join(dir, name), "utf8")]);
    }
    for (const [language, text] of files) {
      const lines = fileLines(text);
      expect(highlightLines(lines, language)).toEqual(referenceLines(lines.join("\n"), language));
    }
  });

  test("the reference cuts HTML into lines reopening nested spans", () => {
    expect(splitHighlightedLines('a<span class="x">b<span class="y">c\nd</span>e\nf</span>g')).toEqual(['a<span class="x">b<span class="y">c</span></span>', '<span class="x"><span class="y">d</span>e</span>', '<span class="x">f</span>g']);
  });

  test("the text is preserved and escaped (no markup injection)", () => {
    const line = `x = "<script>alert('&')</script>" < y && z > 1 // <b>`;
    for (const lang of ["python", "java", "javascript", "php", "ruby", null]) {
      const [html] = highlightLines([line], lang);
      expect(strip(html)).toBe(line);
      expect(html).not.toMatch(/<script|<b>/);
    }
    expect(escapeHtml(`a<b>&"c"`)).toBe("a&lt;b&gt;&amp;&quot;c&quot;");
  });

  test("the diff model: deleted lines from the old file, others from the new one; hunks alone when the files are missing", () => {
    const oldFile = 'def f():\n    """Old\n    doc."""\n    return 1\n';
    const newFile = 'def f():\n    """New\n    doc."""\n    return 2\n';
    const diff = unifiedDiff(oldFile, newFile, { path: "f.py" });
    for (const files of [{ oldFile, newFile }, {}]) {
      const [model] = buildFileModels({ key: "k", path: "f.py", language: "", diff, ...files });
      const rows = model.segments.flatMap((s) => (s.type === "hunk" ? s.rows : []));
      expect(rows.map((r) => strip(r.html))).toEqual(['def f():', '    """Old', '    """New', '    doc."""', "    return 1", "    return 2"]);
      // the docstring's second line is inside the string (state carried across lines)
      expect(rows[3].html).toBe(token("string", '    doc."""'));
      expect(rows.find((r) => r.kind === "del" && r.html.includes("return"))!.html).toContain(token("number", "1"));
    }
  });

  test("an addition-only change with its files: added and context lines from the new file, context expandable", () => {
    const oldFile = Array.from({ length: 12 }, (_, i) => `x${i} = ${i}`).join("\n") + "\n";
    const newFile = oldFile.replace("x6 = 6\n", 'x6 = 6\ns = "added"  # new\n');
    const [model] = buildFileModels({ key: "k", path: "a.py", language: "python", diff: unifiedDiff(oldFile, newFile, { path: "a.py" }), oldFile, newFile });
    const rows = model.segments.flatMap((s) => (s.type === "hunk" ? s.rows : []));
    expect(rows.find((r) => r.kind === "add")!.html).toBe(`s = ${token("string", '"added"')}  ${token("comment", "# new")}`);
    for (const r of rows.filter((r) => r.kind === "context")) {
      expect(strip(r.html)).toBe(newFile.split("\n")[r.newNo! - 1]);
      expect(r.html).toContain('<span class="tk-number">');
    }
    expect(model.contextHtml).toHaveLength(13);
  });

  /** Every row of a change's model against highlight.js's rendering of the whole old and new files: deleted lines from the old one, the rest from the new one. */
  function expectRowsOfBothFiles(language: string, oldLines: string[], newLines: string[]): void {
    const path = `f.${language}`;
    const oldFile = oldLines.join("\n") + "\n";
    const newFile = newLines.join("\n") + "\n";
    const [model] = buildFileModels({ key: "k", path, language, diff: unifiedDiff(oldFile, newFile, { path }), oldFile, newFile });
    const oldReference = referenceLines(oldLines.join("\n"), language);
    const newReference = referenceLines(newLines.join("\n"), language);
    const rows = model.segments.flatMap((s) => (s.type === "hunk" ? s.rows : []));
    expect(rows.some((r) => r.kind === "del")).toBe(true);
    for (const row of rows) expect(row.html).toBe(row.kind === "del" ? oldReference[row.oldNo! - 1] : newReference[row.newNo! - 1]);
    expect(model.contextHtml).toEqual(newReference);
  }

  /** Changes whose deleted lines open or close a comment, string or heredoc, so the old file's state differs from the new one's across the lines they share. */
  const OPENING_CHANGES: [string, string[], string[]][] = [
    ["javascript", ["let a = 1;", "/* opened", "let b = `x", "closed */", "let c = 3;", "let d = `y", "`;"], ["let a = 1;", "let b = `x", "let c = 3;", "`;"]],
    ["typescript", ["const t = `a", "function f(): number { return 1 }", "`;", "enum E { X }"], ["function f(): number { return 1 }", "enum E { X }"]],
    ["python", ["def f():", '    s = """', "    return 1", '    """', "    return 2"], ["def f():", "    return 1", "    return 2"]],
    ["python", ["def f():", "    s = '''", "    return 1", "    '''", "    return 2"], ["def f():", "    return 1", "    x = 0", "    return 2"]],
    ["c", ["#define X \\", "  int y = 1;", "int z = 2; /* a", "b */ int w;"], ["  int y = 1;", "int z = 2;", "b */ int w;"]],
    ["cpp", ['auto s = R"(raw', "int x = 1;", ')";', "int y = 2;"], ["int x = 1;", "int y = 2;"]],
    ["csharp", ['string s = @"verbatim', "int x = 1;", '";', "int y = 2;"], ["int x = 1;", "int y = 2;"]],
    ["go", ["s := `raw", "func f() int { return 1 }", "`", "var x = 2"], ["func f() int { return 1 }", "var x = 2"]],
    ["java", ['String s = """', "    int x = 1;", '    """;', "int y = 2;"], ["    int x = 1;", "int y = 2;"]],
    ["php", ["<?php", "$s = <<<EOT", "function f() { return 1; }", "EOT;", "$t = 2;"], ["<?php", "function f() { return 1; }", "$t = 2;"]],
    ["ruby", ["=begin", "def f; 1; end", "=end", "x = <<~EOS", "  def g; end", "EOS", "y = 2"], ["def f; 1; end", "  def g; end", "y = 2"]],
  ];

  test.each(OPENING_CHANGES)("%s: a change opening a comment or string in the old file gives each file's own tokens", (language, oldLines, newLines) => {
    expectRowsOfBothFiles(language, oldLines, newLines);
  });

  test("real files changed in many places: each row as highlight.js renders its whole file, in every grammar", () => {
    const texts = [readFileSync("components/diff-view/model.ts", "utf8"), readFileSync("node_modules/highlight.js/lib/languages/python.js", "utf8")];
    if (hasSharedFile("data", "crscore", "phase1", "context_files")) {
      const dir = sharedPath("data", "crscore", "phase1", "context_files");
      for (const name of readdirSync(dir).sort().slice(0, 5)) texts.push(readFileSync(path.join(dir, name), "utf8"));
    }
    for (const text of texts) {
      const newLines = fileLines(text);
      // Every ninth line deleted, and a line added after every thirteenth: hunks all along the file.
      const oldLines = newLines.flatMap((line, i) => (i % 13 === 0 ? [line, `${line} // added ${i}`] : [line])).filter((_, i) => i % 9 !== 4);
      for (const language of ["c", "cpp", "csharp", "go", "java", "javascript", "php", "python", "ruby", "typescript"]) expectRowsOfBothFiles(language, oldLines, newLines);
    }
  });

  test("only some lines: those as in the whole file's highlighting, the others empty", () => {
    const lines = fileLines(readFileSync("node_modules/highlight.js/lib/languages/javascript.js", "utf8"));
    const only = lines.map((_, i) => i).filter((i) => i % 17 === 3 || (i > 200 && i < 230));
    const html = highlightLines(lines, "javascript", lines.length, only);
    const reference = referenceLines(lines.join("\n"), "javascript");
    expect(html).toEqual(reference.map((line, i) => (only.includes(i) ? line : "")));
  });
});
