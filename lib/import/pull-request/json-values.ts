/**
 * The objects of a JSON comments file with the line each starts on, so that errors can name it.
 * Accepted: one array (GitHub's REST answer), several arrays one after the other (what
 * `gh api --paginate` prints), or objects one after the other (JSON Lines, `--jq '.[]'`).
 */
import type { ErrorCollector } from "../errors";

export interface LocatedValue {
  value: unknown;
  /** 1-based line the value starts on. */
  line: number;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r", "\ufeff"]);

/** The end (exclusive) of the string starting at `start` (its opening quote). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** The end (exclusive) of the value starting at `start`: a bracketed value up to its matching bracket, a string, or a bare word. */
function valueEnd(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first !== "{" && first !== "[") {
    let i = start;
    while (i < text.length && !WHITESPACE.has(text[i]) && text[i] !== "," && text[i] !== "]") i++;
    return i;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i) - 1;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

/** Every top-level object, or element of a top-level array, with its line; unreadable values are reported and left out. */
export function readJsonValues(text: string, file: string, errors: ErrorCollector): LocatedValue[] {
  const values: LocatedValue[] = [];
  let line = 1;
  let inArray = false;
  const advance = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (text[k] === "\n") line++;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (WHITESPACE.has(c) || (inArray && c === ",")) {
      if (c === "\n") line++;
      i++;
      continue;
    }
    if (!inArray && c === "[") {
      inArray = true;
      i++;
      continue;
    }
    if (inArray && c === "]") {
      inArray = false;
      i++;
      continue;
    }
    const end = valueEnd(text, i);
    const start = line;
    try {
      values.push({ value: JSON.parse(text.slice(i, end)) as unknown, line: start });
    } catch (error) {
      errors.add({ file, line: start }, undefined, `not valid JSON: ${(error as Error).message}`);
    }
    advance(i, end);
    i = end;
  }
  if (inArray) errors.add({ file, line }, undefined, "the array is not closed: the file ends before its ]");
  return values;
}
