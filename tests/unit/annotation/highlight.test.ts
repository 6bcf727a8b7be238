import { describe, expect, test } from "vitest";
import { escapeHtml, highlightLine, highlightLines, languageOf } from "@/components/diff-view/highlight";

const strip = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

describe("highlighter", () => {
  test("languages", () => {
    expect(languageOf("Python")).toBe("python");
    expect(languageOf("js")).toBe("javascript");
    expect(languageOf("TypeScript")).toBe("javascript");
    expect(languageOf("java")).toBe("java");
    expect(languageOf("go")).toBe("plain");
  });

  test("python: keywords, strings with prefixes, comments, numbers", () => {
    const { html } = highlightLine(`def f(x): return rb"a#b" + 0x1F  # done`, "python");
    expect(html).toContain('<span class="tk-k">def</span>');
    expect(html).toContain('<span class="tk-k">return</span>');
    expect(html).toContain('<span class="tk-s">rb&quot;a#b&quot;</span>');
    expect(html).toContain('<span class="tk-n">0x1F</span>');
    expect(html).toContain('<span class="tk-c"># done</span>');
    expect(html).not.toContain('<span class="tk-k">f</span>');
  });

  test("java and javascript: line and block comments, escapes in strings, template literals", () => {
    expect(highlightLine(`int n = 3; // count`, "java").html).toBe('<span class="tk-k">int</span> n = <span class="tk-n">3</span>; <span class="tk-c">// count</span>');
    expect(highlightLine(`s = "a\\"b"; /* c */ x`, "java").html).toBe('s = <span class="tk-s">&quot;a\\&quot;b&quot;</span>; <span class="tk-c">/* c */</span> x');
    const lines = highlightLines(["const a = `x", "y ${b}`; let c = 1"], "javascript");
    expect(lines[1]).toContain('<span class="tk-s">y ${b}`</span>');
    expect(lines[1]).toContain('<span class="tk-k">let</span>');
  });

  test("state carries across lines: block comments and triple-quoted strings", () => {
    const js = highlightLines(["/* start", "if (x) still comment", "end */ if (y) {}"], "javascript");
    expect(js[1]).toBe('<span class="tk-c">if (x) still comment</span>');
    expect(js[2]).toContain('<span class="tk-k">if</span>');
    const py = highlightLines(['x = """doc', "def not_code", 'end""" ; def g(): pass'], "python");
    expect(py[1]).toBe('<span class="tk-s">def not_code</span>');
    expect(py[2]).toContain('<span class="tk-k">def</span>');
    // an unterminated ordinary string ends with its line
    expect(highlightLines(['s = "open', "return 1"], "python")[1]).toContain('<span class="tk-k">return</span>');
  });

  test("the text is preserved and escaped (no markup injection)", () => {
    const line = `x = "<script>alert('&')</script>" < y && z > 1 // <b>`;
    for (const lang of ["python", "java", "javascript", "plain"] as const) {
      const { html } = highlightLine(line, lang);
      expect(strip(html)).toBe(line);
      expect(html).not.toMatch(/<script|<b>/);
    }
    expect(escapeHtml(`a<b>&"c"`)).toBe("a&lt;b&gt;&amp;&quot;c&quot;");
  });

  test("identifiers containing digits or keywords are not split", () => {
    expect(highlightLine("x1 = if_done + classy", "python").html).toBe("x1 = if_done + classy");
  });
});
