/**
 * The NIST mteval tokenisation shared by CodeReviewer's smooth BLEU (mteval-v11a `normalize`)
 * and sacreBLEU's `13a` tokenizer. Both apply the same four
 * language-dependent regexes; they differ in unescaping order, casing and `rstrip`. The regexes
 * only insert spaces, so their result is the text's whitespace-separated pieces cut at some
 * boundaries: one scan finds those cuts (see scanMteval) and yields the tokens as spans.
 */
import { isLetterOrNumber, isPySpace, pyRstrip } from "./python-compat";
import { type IdBuffer, spanIds, TokenSpans } from "./tokens";

const DOT = 0x2e;
const COMMA = 0x2c;
const DASH = 0x2d;
const SPACE = 0x20;

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isPeriodOrComma = (code: number) => code === DOT || code === COMMA;
/** `[{-~[-\` -&(-+:-@/]` without the space: !"#$%&()*+/:;<=>?@[\]^_`{|}~ — not ' , - or . */
const isSplitPunctuation = (code: number) =>
  (code >= 0x21 && code <= 0x26) ||
  (code >= 0x28 && code <= 0x2b) ||
  code === 0x2f ||
  (code >= 0x3a && code <= 0x40) ||
  (code >= 0x5b && code <= 0x60) ||
  (code >= 0x7b && code <= 0x7e);

/** The UTF-16 unit at `i`, a space outside the text (the passes run on ` text `). */
const unitAt = (text: string, i: number) => (i >= 0 && i < text.length ? text.charCodeAt(i) : SPACE);

/**
 * The tokens of `re.sub` by, in order, `([{-~[-\` -&(-+:-@/])` → ` $1 `, `([^0-9])([\.,])` →
 * `$1 $2 `, `([\.,])([^0-9])` → ` $1 $2`, `([0-9])(-)` → `$1 $2 ` on ` text `, then `split()`.
 * In one scan, from the cuts those passes make between two non-space characters:
 * - around each character of the first class;
 * - in a run r0..r(k-1) of periods and commas between c and d: between any two of its
 *   characters; between c and r0 unless c is a digit, k = 1 and d is a digit; between r(k-1)
 *   and d when d is not a digit, or when k plus (c is not a digit) is even. (The second pass
 *   pairs c, r0, r1, … from the left without overlap and spaces each pair; the third cuts before
 *   every period or comma followed by a non-digit.)
 * - between a digit and a dash, and after that dash.
 */
function scanMteval(text: string, spans: TokenSpans): TokenSpans {
  spans.reset(text);
  const n = text.length;
  let start = -1;
  let cutAt = -1; // a cut decided ahead, before this index
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    const punctuation = isSplitPunctuation(code);
    if (punctuation || isPySpace(code)) {
      if (start >= 0) spans.push(start, i);
      start = -1;
      if (punctuation) spans.push(i, i + 1);
      continue;
    }
    let cut = i === cutAt;
    if (isPeriodOrComma(code)) {
      const before = unitAt(text, i - 1);
      if (isPeriodOrComma(before)) cut = true;
      else {
        let k = 1;
        while (i + k < n && isPeriodOrComma(text.charCodeAt(i + k))) k++;
        const digitBefore = isDigit(before);
        const digitAfter = isDigit(unitAt(text, i + k));
        if (!digitBefore || k >= 2 || !digitAfter) cut = true;
        if ((k + (digitBefore ? 0 : 1)) % 2 === 0 || !digitAfter) cutAt = i + k;
      }
    } else if (code === DASH && isDigit(unitAt(text, i - 1))) {
      cut = true;
      cutAt = i + 1;
    }
    if (cut && start >= 0) {
      spans.push(start, i);
      start = -1;
    }
    if (start < 0) start = i;
  }
  if (start >= 0) spans.push(start, n);
  return spans;
}

/** Language-independent part common to both: drop `<skipped>`, join hyphenated line ends, lines into spaces. */
function joinLines(text: string): string {
  return text.replaceAll("<skipped>", "").replaceAll("-\n", "").replaceAll("\n", " ");
}

/** Whether joinLines or an XML unescape can change the text: most review texts pass unchanged. */
const NEEDS_UNESCAPE = /[<&\n]/;

/** mteval-v11a's text before splitting: XML unescape in `xml.sax.saxutils.unescape` order (`&amp;` last), lowercased. */
function prepareMteval11a(text: string): string {
  const unescaped = !NEEDS_UNESCAPE.test(text)
    ? text
    : joinLines(text)
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">")
        .replaceAll("&quot;", '"')
        .replaceAll("&amp;", "&");
  return unescaped.toLowerCase();
}

/** 13a's text before splitting: `rstrip`, unescape in the order `&quot;`, `&amp;`, `&lt;`, `&gt;`, case preserved. */
function prepare13a(text: string): string {
  const stripped = pyRstrip(text);
  return !NEEDS_UNESCAPE.test(stripped)
    ? stripped
    : joinLines(stripped)
        .replaceAll("&quot;", '"')
        .replaceAll("&amp;", "&")
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">");
}

const spans = new TokenSpans();

/**
 * CodeReviewer `smooth_bleu.normalize` (mteval-v11a): XML unescape in
 * `xml.sax.saxutils.unescape` order with `&amp;` last (so `&amp;lt;` becomes `&lt;`), lowercase.
 */
export function normalizeMteval11a(text: string): string[] {
  return scanMteval(prepareMteval11a(text), spans).strings();
}

/** normalizeMteval11a as token ids (see startVocabulary), in `buffer`. */
export function mteval11aIds(text: string, buffer: IdBuffer): Int32Array {
  return spanIds(scanMteval(prepareMteval11a(text), spans), buffer);
}

/**
 * sacreBLEU `Tokenizer13a` on `seg.rstrip()`: unescape in the order
 * `&quot;`, `&amp;`, `&lt;`, `&gt;`, case preserved. Unicode punctuation is never split.
 */
export function tokenize13a(text: string): string[] {
  return scanMteval(prepare13a(text), spans).strings();
}

/** tokenize13a as token ids (see startVocabulary), in `buffer`. */
export function tokenize13aIds(text: string, buffer: IdBuffer): Int32Array {
  return spanIds(scanMteval(prepare13a(text), spans), buffer);
}

/**
 * Ids of `normalizeMteval11a(splitPuncts(text))` for a lowercased text (CodeReviewer's and
 * GradedReviews' pipelines). splitPuncts leaves runs of `\w` and single other
 * characters separated by spaces, so no entity or line break is left to unescape, lowercasing
 * again changes nothing (lowercase is idempotent on every code point), and of the mteval regexes
 * only the first still cuts, around `_`: the tokens are runs of letters and numbers and single
 * other non-space code points. The ids are in `buffer`, valid until its next use.
 */
export function splitPunctsMteval11aIds(lowercased: string, buffer: IdBuffer): Int32Array {
  spans.reset(lowercased);
  const n = lowercased.length;
  let start = -1;
  for (let i = 0; i < n; ) {
    const codePoint = lowercased.codePointAt(i) as number;
    const width = codePoint > 0xffff ? 2 : 1;
    if (isLetterOrNumber(codePoint)) {
      if (start < 0) start = i;
    } else {
      if (start >= 0) spans.push(start, i);
      start = -1;
      if (!isPySpace(codePoint)) spans.push(i, i + width);
    }
    i += width;
  }
  if (start >= 0) spans.push(start, n);
  return spanIds(spans, buffer);
}
