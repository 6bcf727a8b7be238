/**
 * Syntax highlighting of diffs with highlight.js: its core and only the languages of the
 * CodeReviewer data (C, C++, C#, Go, Java, JavaScript, PHP, Python, Ruby) plus TypeScript, so the
 * client bundle stays small. A file (or one side of a hunk) is highlighted as one text, so block
 * comments and multi-line strings are recognised across lines; the HTML is then cut into lines,
 * closing the spans open at a line's end and reopening them on the next line. highlight.js
 * escapes the code; text in a language it does not know is escaped here.
 */
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

/** An instance of our own: its configuration does not leak to other users of highlight.js. */
const hljs = core.newInstance();
for (const [name, language] of Object.entries({ c, cpp, csharp, go, java, javascript, php, python, ruby, typescript })) hljs.registerLanguage(name, language);
// Spellings of the data sets beyond highlight.js's own aliases (py, js, ts, rb, cs, c++, golang, h, hpp, ...).
hljs.registerAliases(["c_sharp", "c-sharp"], { languageName: "csharp" });
hljs.configure({ classPrefix: "tk-" });

/** A language highlight.js knows (by name or alias), or null for plain text. */
export type HighlightLanguage = string | null;

const known = (name: string | undefined): HighlightLanguage => {
  const n = name?.trim().toLowerCase().replace(/^\./, "");
  return n && hljs.getLanguage(n) ? n : null;
};

/**
 * The language of a stored change: its `language` field ("python", "py", ".cs" as in
 * CodeReviewer, ...), else its file's extension; null (plain text) when neither is known.
 */
export function languageOf(name: string, path = ""): HighlightLanguage {
  return known(name) ?? known(/\.([^./\\]+)$/.exec(path)?.[1]);
}

export function escapeHtml(text: string): string {
  let out = "";
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const rep = c === 38 ? "&amp;" : c === 60 ? "&lt;" : c === 62 ? "&gt;" : c === 34 ? "&quot;" : null;
    if (rep) {
      out += text.slice(last, i) + rep;
      last = i + 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Cuts highlighted HTML into lines; every line is balanced (spans crossing a newline are closed and reopened). */
export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = "";
  let last = 0;
  const token = /<span[^>]*>|<\/span>|\n/g;
  for (let m = token.exec(html); m; m = token.exec(html)) {
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

/**
 * Recently highlighted texts, least recently used first: the same change is rendered for every
 * annotator, every visit and both diff layouts, and highlighting a file costs several times more
 * than rendering it. Bounded by characters (text and HTML), about 16 MB.
 */
const recent = new Map<string, string[]>();
const RECENT_CHARS = 8_000_000;
let recentChars = 0;
const charsOf = (key: string, lines: readonly string[]) => lines.reduce((sum, line) => sum + line.length, key.length);

/**
 * Highlights consecutive lines of one file (or one side of a hunk) as one text: one HTML string
 * per line. With `limit`, only the first `limit` lines (the rest escaped): highlighting is a
 * left-to-right scan, so a prefix comes out as it does within the whole text.
 */
export function highlightLines(lines: readonly string[], language: HighlightLanguage, limit = lines.length): string[] {
  if (language === null || lines.length === 0 || limit <= 0) return lines.map(escapeHtml);
  if (limit < lines.length) return [...highlightLines(lines.slice(0, limit), language), ...lines.slice(limit).map(escapeHtml)];
  const text = lines.join("\n");
  const key = `${language}\n${text}`;
  let html = recent.get(key);
  if (html) recent.delete(key);
  else {
    html = splitHighlightedLines(hljs.highlight(text, { language, ignoreIllegals: true }).value);
    recentChars += charsOf(key, html);
    for (const [oldKey, oldHtml] of recent) {
      if (recentChars <= RECENT_CHARS) break;
      recent.delete(oldKey);
      recentChars -= charsOf(oldKey, oldHtml);
    }
  }
  recent.set(key, html);
  return html;
}

/**
 * Colours of highlight.js's token classes, rendered once with the diff view (the palette checked
 * for contrast on the added/deleted line backgrounds): keywords, types, built-ins and literals;
 * strings; comments and preprocessor/decorator lines; numbers.
 */
export const HIGHLIGHT_CSS = `.tk-keyword,.tk-type,.tk-built_in,.tk-literal{color:#7c3aed;font-weight:600}.tk-string,.tk-regexp,.tk-symbol{color:#047857}.tk-comment,.tk-meta{color:#475569}.tk-comment{font-style:italic}.tk-number{color:#b45309}`;
