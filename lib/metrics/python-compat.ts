/**
 * Python 3 string and number semantics that the reference implementations depend on
 * (their reference implementations). JS differs from Python in small ways that
 * change scores: `\s` and `\w` cover other characters, `.length` counts UTF-16 units rather
 * than code points, and `toFixed` rounds ties away from zero.
 */

/** The characters for which Python's `str.isspace()` is true. JS `\s` lacks \x1c-\x1f and \x85 and adds \ufeff. */
const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
/** Python's Unicode `\w` is `str.isalnum()` or `_`, i.e. letters, numbers and `_` (combining marks are not `\w`). */
const PY_WORD = "\\p{L}\\p{N}_";

const NON_SPACE_RUN = new RegExp(`[^${PY_SPACE}]+`, "g");
// nltk WordPunctTokenizer: `\w+|[^\w\s]+`.
const WORDPUNCT = new RegExp(`[${PY_WORD}]+|[^${PY_WORD}${PY_SPACE}]+`, "gu");
const SURROGATE = /[\ud800-\udfff]/;

/** Python `str.isspace()` for one UTF-16 unit (every Python whitespace character is in the BMP). */
export function isPySpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code >= 0x1c;
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
/** Per code point: 0 not yet classified, 1 a letter or number, 2 neither. */
const letterOrNumber = new Uint8Array(0x110000);

/** Whether a code point is a Unicode letter or number: Python's `\w` without `_`. */
export function isLetterOrNumber(codePoint: number): boolean {
  if (codePoint < 0x80) return (codePoint >= 0x61 && codePoint <= 0x7a) || (codePoint >= 0x41 && codePoint <= 0x5a) || (codePoint >= 0x30 && codePoint <= 0x39);
  if (letterOrNumber[codePoint] === 0) letterOrNumber[codePoint] = LETTER_OR_NUMBER.test(String.fromCodePoint(codePoint)) ? 1 : 2;
  return letterOrNumber[codePoint] === 1;
}

/** Python `str.split()` with no argument: split on runs of whitespace, drop empty pieces. */
export function pySplit(text: string): string[] {
  return text.match(NON_SPACE_RUN) ?? [];
}

/** Python `str.strip()` with no argument. */
export function pyStrip(text: string): string {
  let start = 0;
  while (start < text.length && isPySpace(text.charCodeAt(start))) start++;
  return pyRstrip(start === 0 ? text : text.slice(start));
}

/** Python `str.rstrip()` with no argument. */
export function pyRstrip(text: string): string {
  let end = text.length;
  while (end > 0 && isPySpace(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `nltk.wordpunct_tokenize` (regex `\w+|[^\w\s]+`, Unicode), as used by CodeReviewer's `bleu_fromstr`. */
export function wordpunctTokenize(text: string): string[] {
  return text.match(WORDPUNCT) ?? [];
}

/** Python `len(str)`: the number of code points, not UTF-16 units. */
export function codePointLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The code points of a text (Python's view of a `str`), as numbers. */
export function codePoints(text: string): Int32Array {
  const codes = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i) as number;
    if (code > 0xffff) i++;
    codes[n++] = code;
  }
  return codes.subarray(0, n);
}

/** True when the text has characters outside the BMP, where JS indices stop being Python indices. */
export function hasAstral(text: string): boolean {
  return SURROGATE.test(text);
}

/** Rounding error of the product a·b, exactly (Dekker's TwoProduct with Veltkamp splitting). */
function productError(a: number, b: number, product: number): number {
  const split = (v: number): [number, number] => {
    const c = 134217729 * v; // 2^27 + 1
    const high = c - (c - v);
    return [high, v - high];
  };
  const [aHigh, aLow] = split(a);
  const [bHigh, bLow] = split(b);
  return aHigh * bHigh - product + aHigh * bLow + aLow * bHigh + aLow * bLow;
}

/**
 * Python `round(x, ndigits)` for ndigits ≤ 22: correctly rounded from the exact binary value,
 * ties to even. `toFixed` is exact too but breaks ties upwards, so exact ties (x·10^ndigits is
 * exactly k + ½, which needs the product to be error-free) are handled first.
 */
export function pyRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x)) return x;
  const scale = 10 ** ndigits;
  const scaled = x * scale;
  const floor = Math.floor(scaled);
  if (scaled - floor === 0.5 && productError(x, scale, scaled) === 0) {
    return (floor % 2 === 0 ? floor : floor + 1) / scale;
  }
  return Number(x.toFixed(ndigits));
}
