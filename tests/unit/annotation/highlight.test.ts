import { describe, expect, test } from "vitest";
import { escapeHtml, highlightLines, languageOf, splitHighlightedLines } from "@/components/diff-view/highlight";
import { buildFileModels } from "@/components/diff-view/model";
import { unifiedDiff } from "@/lib/diff";

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

  test("cutting HTML into lines reopens nested spans", () => {
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
});
