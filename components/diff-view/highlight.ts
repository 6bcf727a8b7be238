/**
 * A small syntax highlighter for diffs: one pass over each line with a state carried across
 * lines (block comments, multi-line strings), producing escaped HTML with short class names
 * (tk-k keyword, tk-s string, tk-c comment, tk-n number). It knows Python, Java and
 * JavaScript/TypeScript; other languages are escaped only. Deliberately simple and fast: no
 * regex backtracking over whole files, one linear scan per line.
 */

export type HighlightLanguage = "python" | "java" | "javascript" | "plain";

export interface HighlightState {
  /** Inside a block comment (slash-star) or a multi-line string (its closing delimiter). */
  open: null | { kind: "comment" | "string"; close: string };
}

const KEYWORDS: Record<Exclude<HighlightLanguage, "plain">, ReadonlySet<string>> = {
  python: new Set(
    "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case self print len range".split(" "),
  ),
  java: new Set(
    "abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while var record yield true false null".split(" "),
  ),
  javascript: new Set(
    "async await break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return static super switch this throw try typeof var void while with yield true false null undefined interface type enum implements private protected public readonly as".split(" "),
  ),
};

export function languageOf(name: string): HighlightLanguage {
  const n = name.toLowerCase();
  if (n === "python" || n === "py") return "python";
  if (n === "java") return "java";
  if (["javascript", "js", "typescript", "ts", "jsx", "tsx"].includes(n)) return "javascript";
  return "plain";
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

const span = (cls: string, text: string) => `<span class="tk-${cls}">${escapeHtml(text)}</span>`;

const isIdentStart = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" || c === "$";
const isIdentPart = (c: string) => isIdentStart(c) || (c >= "0" && c <= "9");
const isDigit = (c: string) => c >= "0" && c <= "9";

/** End index (exclusive) of a string starting at `start` whose quote is `quote`; -1 when it runs past the line. */
function stringEnd(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === "\\") {
      i++;
      continue;
    }
    if (line.startsWith(quote, i)) return i + quote.length;
  }
  return -1;
}

/** Highlights one line, continuing from `state`; returns the HTML and the state after the line. */
export function highlightLine(line: string, language: HighlightLanguage, state: HighlightState = { open: null }): { html: string; state: HighlightState } {
  if (language === "plain") return { html: escapeHtml(line), state };
  const keywords = KEYWORDS[language];
  let html = "";
  let i = 0;
  let plainStart = 0;
  let open = state.open;
  const flushPlain = (to: number) => {
    if (to > plainStart) html += escapeHtml(line.slice(plainStart, to));
  };

  if (open) {
    const end = open.kind === "comment" ? line.indexOf(open.close) : stringEnd(line, 0, open.close);
    if (end < 0) return { html: span(open.kind === "comment" ? "c" : "s", line), state };
    const stop = open.kind === "comment" ? end + open.close.length : end;
    html += span(open.kind === "comment" ? "c" : "s", line.slice(0, stop));
    i = plainStart = stop;
    open = null;
  }

  while (i < line.length) {
    const c = line[i];
    // comments
    if ((language === "python" && c === "#") || (language !== "python" && c === "/" && line[i + 1] === "/")) {
      flushPlain(i);
      html += span("c", line.slice(i));
      return { html, state: { open: null } };
    }
    if (language !== "python" && c === "/" && line[i + 1] === "*") {
      flushPlain(i);
      const end = line.indexOf("*/", i + 2);
      if (end < 0) return { html: html + span("c", line.slice(i)), state: { open: { kind: "comment", close: "*/" } } };
      html += span("c", line.slice(i, end + 2));
      i = plainStart = end + 2;
      continue;
    }
    // strings (with Python prefixes such as r, b, f, rb)
    let quoteAt = i;
    if (language === "python" && /[rRbBuUfF]/.test(c)) {
      let j = i;
      while (j < line.length && j - i < 2 && /[rRbBuUfF]/.test(line[j])) j++;
      if ((line[j] === '"' || line[j] === "'") && (i === 0 || !isIdentPart(line[i - 1]))) quoteAt = j;
    }
    const q = line[quoteAt];
    if (q === '"' || q === "'" || (q === "`" && language === "javascript")) {
      const triple = (language === "python" || (language === "java" && q === '"')) && line.startsWith(q.repeat(3), quoteAt);
      const quote = triple ? q.repeat(3) : q;
      flushPlain(i);
      const end = stringEnd(line, quoteAt + quote.length, quote);
      if (end < 0) {
        html += span("s", line.slice(i));
        // triple-quoted and template strings continue on the next line; others end with the line
        const continues = triple || q === "`";
        return { html, state: { open: continues ? { kind: "string", close: quote } : null } };
      }
      html += span("s", line.slice(i, end));
      i = plainStart = end;
      continue;
    }
    if (isDigit(c) && (i === 0 || !isIdentPart(line[i - 1]))) {
      let j = i + 1;
      while (j < line.length && (isIdentPart(line[j]) || (line[j] === "." && isDigit(line[j + 1] ?? "")))) j++;
      flushPlain(i);
      html += span("n", line.slice(i, j));
      i = plainStart = j;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < line.length && isIdentPart(line[j])) j++;
      const word = line.slice(i, j);
      if (keywords.has(word)) {
        flushPlain(i);
        html += span("k", word);
        plainStart = j;
      }
      i = j;
      continue;
    }
    i++;
  }
  flushPlain(line.length);
  return { html, state: { open } };
}

/** Highlights consecutive lines of one file (state carried from line to line). */
export function highlightLines(lines: readonly string[], language: HighlightLanguage): string[] {
  const out = new Array<string>(lines.length);
  let state: HighlightState = { open: null };
  for (let i = 0; i < lines.length; i++) {
    const result = highlightLine(lines[i], language, state);
    out[i] = result.html;
    state = result.state;
  }
  return out;
}

/** Colours of the token classes, rendered once with the diff view. */
export const HIGHLIGHT_CSS = `.tk-k{color:#7c3aed;font-weight:600}.tk-s{color:#047857}.tk-c{color:#475569;font-style:italic}.tk-n{color:#b45309}`;
