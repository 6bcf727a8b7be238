/**
 * Syntax highlighting of diffs with highlight.js: its core and only the languages of the
 * CodeReviewer data (C, C++, C#, Go, Java, JavaScript, PHP, Python, Ruby) plus TypeScript, so the
 * client bundle stays small. A file (or one side of a hunk) is highlighted as one text, so block
 * comments and multi-line strings are recognised across lines; its tokens are written straight
 * into lines (LineEmitter), closing the spans open at a line's end and reopening them on the next
 * line. highlight.js escapes the code; text in a language it does not know is escaped here.
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
import { compiledLanguage, scan, type ScanEmitter } from "./scan";

/** highlight.js's escaping of highlighted text (it escapes ' too). */
function escapeToken(text: string): string {
  return /[&<>"']/.test(text) ? escapeHtml(text).replace(/'/g, "&#x27;") : text;
}

/** Opening tags of scopes' spans, per class prefix. */
const tagsByPrefix = new Map<string, Map<string, string>>();

/** A scope's span: "a.b.c" gives class "tk-a b_ c__" and a sub-language "language-x", as highlight.js names them. */
function tagOf(prefix: string, scope: string): string {
  const [first, ...rest] = scope.startsWith("language:") ? [scope.replace("language:", "language-")] : scope.split(".");
  const cls = scope.startsWith("language:") ? first : [`${prefix}${first}`, ...rest.map((piece, i) => `${piece}${"_".repeat(i + 1)}`)].join(" ");
  return `<span class="${cls}">`;
}

/**
 * highlight.js's emitter (its `__emitter` option, and the scan's), writing the HTML it would give
 * straight into lines: a span crossing a newline is closed at the line's end and reopened on the
 * next line, so every line is balanced. It replaces the token tree, its HTML rendering and the
 * cutting of that HTML into lines, which took about half of the highlighting time; the markup is
 * the same. With `kept`, only the lines marked 1 there are written; the others come out "".
 */
class LineEmitter implements ScanEmitter {
  readonly lines: string[] = [];
  private line = "";
  /** The opening tags of the spans open now ("" for a scope without a span). */
  private readonly open: string[] = [];
  private readonly prefix: string;
  private readonly tags: Map<string, string>;
  /** Whether the current line is written. */
  private keeps: boolean;
  /** The last line written. */
  private readonly last: number;

  constructor(
    options: { classPrefix: string },
    private readonly kept: Uint8Array | null = null,
  ) {
    this.prefix = options.classPrefix;
    let tags = tagsByPrefix.get(this.prefix);
    if (!tags) tagsByPrefix.set(this.prefix, (tags = new Map()));
    this.tags = tags;
    this.keeps = !kept || kept[0] === 1;
    this.last = kept ? kept.lastIndexOf(1) : Infinity;
  }

  get complete(): boolean {
    return this.lines.length > this.last;
  }

  addText(text: string): void {
    let start = 0;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      if (this.keeps) this.line += escapeToken(text.slice(start, end));
      this.newLine();
      start = end + 1;
    }
    if (this.keeps) this.line += escapeToken(start === 0 ? text : text.slice(start));
  }

  leavesOut(text: string): boolean {
    if (this.keeps) return false;
    let line = this.lines.length;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) if (this.kept![++line] === 1) return false;
    return true;
  }

  private newLine(): void {
    if (this.keeps) {
      let close = "";
      for (const tag of this.open) if (tag) close += "</span>";
      this.lines.push(this.line + close);
    } else this.lines.push("");
    this.keeps = !this.kept || this.kept[this.lines.length] === 1;
    this.line = this.keeps ? this.open.join("") : "";
  }

  openNode(scope: string | undefined): void {
    let tag = scope ? this.tags.get(scope) : "";
    if (tag === undefined) this.tags.set(scope!, (tag = tagOf(this.prefix, scope!)));
    this.open.push(tag);
    if (this.keeps) this.line += tag;
  }

  closeNode(): void {
    if (this.open.length > 0 && this.open.pop() && this.keeps) this.line += "</span>";
  }

  startScope(scope: string): void {
    this.openNode(scope);
  }

  endScope(): void {
    this.closeNode();
  }

  /** A sub-language's lines, inside a span of its own (when named) and the spans open here. */
  __addSublanguage(emitter: LineEmitter, name: string): void {
    this.openNode(name ? `language:${name}` : undefined);
    emitter.lines.forEach((line, i) => {
      this.line += line;
      if (i < emitter.lines.length - 1) this.newLine();
    });
    this.closeNode();
  }

  finalize(): void {
    while (this.open.length > 0) this.closeNode();
    this.lines.push(this.line);
    this.line = "";
  }

  /** Unused: highlightLines reads the lines. */
  toHTML(): string {
    return "";
  }
}

/** An instance of our own: its configuration does not leak to other users of highlight.js. */
const hljs = core.newInstance();
for (const [name, language] of Object.entries({ c, cpp, csharp, go, java, javascript, php, python, ruby, typescript })) hljs.registerLanguage(name, language);
// Spellings of the data sets beyond highlight.js's own aliases (py, js, ts, rb, cs, c++, golang, h, hpp, ...).
hljs.registerAliases(["c_sharp", "c-sharp"], { languageName: "csharp" });
hljs.configure({ classPrefix: "tk-", __emitter: LineEmitter });
const registered = new Set(hljs.listLanguages());

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
 * One text's lines highlighted (those marked 1 in `kept`, the others ""), by our scan of
 * highlight.js's grammar, or by highlight.js itself where the scan does not apply or fails (its
 * output after an error inside it is the escaped text, without the emitter's markup).
 */
function highlightText(text: string, language: string, kept: Uint8Array | null): string[] {
  try {
    const emitter = new LineEmitter({ classPrefix: "tk-" }, kept);
    scan(compiledLanguage(hljs, language), registered, text, emitter);
    // Past the last line kept the scan stopped: the rest are left out too.
    if (kept) while (emitter.lines.length < kept.length) emitter.lines.push("");
    return emitter.lines;
  } catch {
    const result = hljs.highlight(text, { language, ignoreIllegals: true });
    return result.errorRaised ? result.value.split("\n") : (result._emitter as unknown as LineEmitter).lines;
  }
}

/**
 * Highlights consecutive lines of one file (or one side of a hunk) as one text: one HTML string
 * per line. With `limit`, only the first `limit` lines (the rest escaped): highlighting is a
 * left-to-right scan, so a prefix comes out as it does within the whole text. With `only` (line
 * indexes from 0), only those lines are written, the others are "": the old file's deleted lines.
 */
export function highlightLines(lines: readonly string[], language: HighlightLanguage, limit = lines.length, only?: readonly number[]): string[] {
  if (language === null || lines.length === 0 || limit <= 0) return lines.map(escapeHtml);
  if (limit < lines.length) return [...highlightLines(lines.slice(0, limit), language, limit, only?.filter((i) => i < limit)), ...lines.slice(limit).map(escapeHtml)];
  const text = lines.join("\n");
  const key = `${language}\n${only ? only.join(",") : "*"}\n${text}`;
  let html = recent.get(key);
  if (html) recent.delete(key);
  else {
    let kept: Uint8Array | null = null;
    if (only) {
      kept = new Uint8Array(lines.length);
      for (const i of only) kept[i] = 1;
    }
    html = highlightText(text, language, kept);
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
