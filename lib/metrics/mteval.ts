/**
 * The NIST mteval tokenisation shared by CodeReviewer's smooth BLEU (mteval-v11a `normalize`,
 * metrics-spec 1a) and sacreBLEU's `13a` tokenizer (metrics-spec 1b). Both apply the same four
 * language-dependent regexes; they differ in unescaping order, casing and `rstrip`.
 */
import { pyRstrip, pySplit } from "./python-compat";

// Space plus !"#$%&()*+/:;<=>?@[\]^_`{|}~ — not ' , - or . (so `my_var` becomes `my _ var`).
const PUNCTUATION = /([{-~[-`\x20-&(-+:-@/])/g;
const PERIOD_COMMA_AFTER_NON_DIGIT = /([^0-9])([.,])/g;
const PERIOD_COMMA_BEFORE_NON_DIGIT = /([.,])([^0-9])/g;
const DASH_AFTER_DIGIT = /([0-9])(-)/g;

/** Language-independent part common to both: drop `<skipped>`, join hyphenated line ends, lines into spaces. */
function joinLines(text: string): string {
  return text.replaceAll("<skipped>", "").replaceAll("-\n", "").replaceAll("\n", " ");
}

/** Whether joinLines or an XML unescape can change the text: most review texts pass unchanged. */
const NEEDS_UNESCAPE = /[<&\n]/;

/** The four global regex replacements (left to right, like Python `re.sub`), then Python `split()`. */
function splitPunctuation(padded: string): string[] {
  return pySplit(
    padded
      .replace(PUNCTUATION, " $1 ")
      .replace(PERIOD_COMMA_AFTER_NON_DIGIT, "$1 $2 ")
      .replace(PERIOD_COMMA_BEFORE_NON_DIGIT, " $1 $2")
      .replace(DASH_AFTER_DIGIT, "$1 $2 "),
  );
}

/**
 * CodeReviewer `smooth_bleu.normalize` (mteval-v11a, metrics-spec 1a step 1): XML unescape in
 * `xml.sax.saxutils.unescape` order with `&amp;` last (so `&amp;lt;` becomes `&lt;`), lowercase.
 */
export function normalizeMteval11a(text: string): string[] {
  const unescaped = !NEEDS_UNESCAPE.test(text)
    ? text
    : joinLines(text)
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">")
        .replaceAll("&quot;", '"')
        .replaceAll("&amp;", "&");
  return splitPunctuation(` ${unescaped} `.toLowerCase());
}

/**
 * sacreBLEU `Tokenizer13a` on `seg.rstrip()` (metrics-spec 1b): unescape in the order
 * `&quot;`, `&amp;`, `&lt;`, `&gt;`, case preserved. Unicode punctuation is never split.
 */
export function tokenize13a(text: string): string[] {
  const stripped = pyRstrip(text);
  const unescaped = !NEEDS_UNESCAPE.test(stripped)
    ? stripped
    : joinLines(stripped)
        .replaceAll("&quot;", '"')
        .replaceAll("&amp;", "&")
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">");
  return splitPunctuation(` ${unescaped} `);
}
