/** Text handling shared by every import format: decoding, limits, identity of texts. */
import { createHash } from "node:crypto";

/**
 * Longest text accepted in one cell or field. The largest real value seen is a 335 kB
 * CRScore context file; a cell far beyond that is a broken export (an unclosed quote
 * swallowing the rest of the file), so it is refused instead of stored.
 */
export const MAX_TEXT_CHARS = 1_000_000;

export type DecodeResult = { ok: true; text: string } | { ok: false; line?: number; message: string };

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** 1-based line of a byte offset. */
function lineOfOffset(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** Offset of the first byte that is not part of a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const length = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    for (let k = 1; k < length; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}

/**
 * Decodes a file as strict UTF-8 (a byte-order mark is dropped). Other encodings are refused
 * with the line of the first bad byte rather than silently turned into U+FFFD; so are NUL
 * characters, which no PostgreSQL text column can hold.
 */
export function decodeUtf8(bytes: Uint8Array): DecodeResult {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { ok: false, line: 1, message: "the file is UTF-16 encoded; save it as UTF-8" };
  }
  try {
    const text = UTF8.decode(bytes);
    const nul = bytes.indexOf(0);
    if (nul >= 0) return { ok: false, line: lineOfOffset(bytes, nul), message: `contains a NUL character (byte 0x00 at offset ${nul}); text cannot hold it` };
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch {
    const offset = firstInvalidUtf8(bytes);
    return {
      ok: false,
      line: lineOfOffset(bytes, offset),
      message: `not valid UTF-8 (byte 0x${bytes[offset].toString(16).toUpperCase().padStart(2, "0")} at offset ${offset}); save the file as UTF-8`,
    };
  }
}

/** Whitespace runs collapsed and ends trimmed: the form under which texts are compared. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Whether two texts are the same up to whitespace. Spreadsheet round trips re-indent code
 * (one CRScore sheet has the tabs of a diff expanded to spaces) and trim cells, so a
 * difference in whitespace alone is not a conflict; the stored text is kept.
 */
export function sameText(a: string, b: string): boolean {
  return a === b || normalizeWhitespace(a) === normalizeWhitespace(b);
}

/** A stable key for a text, equal for texts that are the same up to whitespace. */
export function textKey(text: string): string {
  return createHash("sha256").update(normalizeWhitespace(text)).digest("hex").slice(0, 16);
}

/**
 * Spreadsheet exports write integer ids as "15764" or "15764.0" (pandas floats); both are the
 * id "15764". Returns null for anything that is not a non-negative integer.
 */
export function integerId(cell: string): string | null {
  const match = /^\s*(\d+)(?:\.0*)?\s*$/.exec(cell);
  return match ? match[1].replace(/^0+(?=\d)/, "") : null;
}

/** Ways two claim texts may differ and still be the same claim (e.g. "3." in a template, "3" in a sheet). */
export type ClaimNormalization = "whitespace" | "list numbering" | "trailing punctuation";

const LIST_NUMBERING = /^(?:\(?\d+[.)]|[-*•])\s+/;
const TRAILING_PUNCTUATION = /\s*[.,;:!]+$/;

/** The form under which claims of one code change are matched: whitespace, list numbering and trailing punctuation ignored. */
export function claimMatchKey(text: string): string {
  return normalizeWhitespace(text).replace(LIST_NUMBERING, "").replace(TRAILING_PUNCTUATION, "");
}

/** The normalizations that make `a` and `b` the same claim, in the order applied (empty when equal; null when they differ anyway). */
export function claimNormalizations(a: string, b: string): ClaimNormalization[] | null {
  const steps: [ClaimNormalization, (text: string) => string][] = [
    ["whitespace", normalizeWhitespace],
    ["list numbering", (text) => text.replace(LIST_NUMBERING, "")],
    ["trailing punctuation", (text) => text.replace(TRAILING_PUNCTUATION, "")],
  ];
  const applied: ClaimNormalization[] = [];
  for (const [name, step] of steps) {
    if (a === b) return applied;
    const [na, nb] = [step(a), step(b)];
    if (na !== a || nb !== b) applied.push(name);
    [a, b] = [na, nb];
  }
  return a === b ? applied : null;
}
