/**
 * NLTK's `PorterStemmer()` in its default `NLTK_EXTENSIONS` mode, `stem(word)` with
 * `to_lowercase=True` (`nltk/nltk` nltk/stem/porter.py, nltk 3.8).
 * It differs from the 1980 algorithm and from Snowball: an irregular-forms table, `ies → ie` for
 * four-letter words, `ied` handling, the `(*c and not c) Y → I` rule, `alli`/`fulli`/`logi` in
 * step 2, and the `len(word) ≤ 2` short-cut. rouge-score and nltk METEOR both use this mode.
 */
import { codePointLength, hasAstral } from "./python-compat";

/** nltk's `pool`: irregular form → paradigm. A Map, so `constructor` & co. are not found on a prototype. */
const IRREGULAR_FORMS = new Map<string, string>([
  ["sky", "sky"],
  ["skies", "sky"],
  ["dying", "die"],
  ["lying", "lie"],
  ["tying", "tie"],
  ["news", "news"],
  ["innings", "inning"],
  ["inning", "inning"],
  ["outings", "outing"],
  ["outing", "outing"],
  ["cannings", "canning"],
  ["canning", "canning"],
  ["howe", "howe"],
  ["proceed", "proceed"],
  ["exceed", "exceed"],
  ["succeed", "succeed"],
]);

const VOWELS = new Set(["a", "e", "i", "o", "u"]);

/** `_is_consonant`: not a vowel, and `y` only when first or after a vowel. */
function isConsonant(word: string, i: number): boolean {
  const ch = word[i];
  if (VOWELS.has(ch)) return false;
  if (ch === "y") return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** `_measure`: m in [C](VC){m}[V], i.e. the number of vowel→consonant transitions. */
function measure(stem: string): number {
  let m = 0;
  let previousIsConsonant = true;
  for (let i = 0; i < stem.length; i++) {
    const consonant = isConsonant(stem, i);
    if (consonant && !previousIsConsonant) m++;
    previousIsConsonant = consonant;
  }
  return m;
}

const hasPositiveMeasure = (stem: string): boolean => measure(stem) > 0;
const measureGreaterThanOne = (stem: string): boolean => measure(stem) > 1;

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

/** Condition *d. */
function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** Condition *o with NLTK's extension: also a two-letter vowel-consonant word. */
function endsCvc(word: string): boolean {
  const n = word.length;
  return (
    (n >= 3 &&
      isConsonant(word, n - 3) &&
      !isConsonant(word, n - 2) &&
      isConsonant(word, n - 1) &&
      !["w", "x", "y"].includes(word[n - 1])) ||
    (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1))
  );
}

/** `(suffix, replacement, condition)`; the suffix `*d` means "ends in a double consonant". */
type Rule = readonly [suffix: string, replacement: string, condition: ((stem: string) => boolean) | null];

/** `_apply_rule_list`: the first rule whose suffix matches decides; if its condition fails the word is kept. */
function applyRuleList(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === "*d" && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, word.length - suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith("ies") && word.length === 4) return word.slice(0, -3) + "ie";
  return applyRuleList(word, [
    ["sses", "ss", null],
    ["ies", "i", null],
    ["ss", "ss", null],
    ["s", "", null],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith("ied")) return word.slice(0, -3) + (word.length === 4 ? "ie" : "i");
  if (word.endsWith("eed")) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? stem + "ee" : word;
  }
  let intermediate: string | null = null;
  for (const suffix of ["ed", "ing"]) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, word.length - suffix.length);
      if (containsVowel(stem)) {
        intermediate = stem;
        break;
      }
    }
  }
  if (intermediate === null) return word;
  const last = intermediate[intermediate.length - 1];
  return applyRuleList(intermediate, [
    ["at", "ate", null],
    ["bl", "ble", null],
    ["iz", "ize", null],
    ["*d", last, () => !["l", "s", "z"].includes(last)],
    ["", "e", (stem) => measure(stem) === 1 && endsCvc(stem)],
  ]);
}

function step1c(word: string): string {
  return applyRuleList(word, [["y", "i", (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: string): string {
  // NLTK applies ALLI → AL first and, if it fires, runs step 2 again.
  if (word.endsWith("alli") && hasPositiveMeasure(word.slice(0, -4))) return step2(word.slice(0, -4) + "al");
  return applyRuleList(word, [
    ["ational", "ate", hasPositiveMeasure],
    ["tional", "tion", hasPositiveMeasure],
    ["enci", "ence", hasPositiveMeasure],
    ["anci", "ance", hasPositiveMeasure],
    ["izer", "ize", hasPositiveMeasure],
    ["bli", "ble", hasPositiveMeasure],
    ["alli", "al", hasPositiveMeasure],
    ["entli", "ent", hasPositiveMeasure],
    ["eli", "e", hasPositiveMeasure],
    ["ousli", "ous", hasPositiveMeasure],
    ["ization", "ize", hasPositiveMeasure],
    ["ation", "ate", hasPositiveMeasure],
    ["ator", "ate", hasPositiveMeasure],
    ["alism", "al", hasPositiveMeasure],
    ["iveness", "ive", hasPositiveMeasure],
    ["fulness", "ful", hasPositiveMeasure],
    ["ousness", "ous", hasPositiveMeasure],
    ["aliti", "al", hasPositiveMeasure],
    ["iviti", "ive", hasPositiveMeasure],
    ["biliti", "ble", hasPositiveMeasure],
    ["fulli", "ful", hasPositiveMeasure],
    // The 'l' of 'logi' stays with the stem, so the measure is taken on word[:-3].
    ["logi", "log", () => hasPositiveMeasure(word.slice(0, -3))],
  ]);
}

function step3(word: string): string {
  return applyRuleList(word, [
    ["icate", "ic", hasPositiveMeasure],
    ["ative", "", hasPositiveMeasure],
    ["alize", "al", hasPositiveMeasure],
    ["iciti", "ic", hasPositiveMeasure],
    ["ical", "ic", hasPositiveMeasure],
    ["ful", "", hasPositiveMeasure],
    ["ness", "", hasPositiveMeasure],
  ]);
}

function step4(word: string): string {
  return applyRuleList(word, [
    ["al", "", measureGreaterThanOne],
    ["ance", "", measureGreaterThanOne],
    ["ence", "", measureGreaterThanOne],
    ["er", "", measureGreaterThanOne],
    ["ic", "", measureGreaterThanOne],
    ["able", "", measureGreaterThanOne],
    ["ible", "", measureGreaterThanOne],
    ["ant", "", measureGreaterThanOne],
    ["ement", "", measureGreaterThanOne],
    ["ment", "", measureGreaterThanOne],
    ["ent", "", measureGreaterThanOne],
    ["ion", "", (stem) => measure(stem) > 1 && (stem.endsWith("s") || stem.endsWith("t"))],
    ["ou", "", measureGreaterThanOne],
    ["ism", "", measureGreaterThanOne],
    ["ate", "", measureGreaterThanOne],
    ["iti", "", measureGreaterThanOne],
    ["ous", "", measureGreaterThanOne],
    ["ive", "", measureGreaterThanOne],
    ["ize", "", measureGreaterThanOne],
  ]);
}

/** Step 5a tries both E rules, so it cannot use applyRuleList (see nltk's comment). */
function step5a(word: string): string {
  if (!word.endsWith("e")) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  return m > 1 || (m === 1 && !endsCvc(stem)) ? stem : word;
}

function step5b(word: string): string {
  return applyRuleList(word, [["ll", "l", () => measure(word.slice(0, -1)) > 1]]);
}

function runSteps(word: string): string {
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(word))))))));
}

/**
 * Python indexes code points; JS strings index UTF-16 units. Characters outside the BMP are
 * swapped for distinct private-use BMP characters absent from the word (consonants either way),
 * stemmed, and swapped back, so lengths and double-letter tests see one character each.
 */
function stemCodePoints(word: string): string {
  const standIns = new Map<string, string>();
  const originals = new Map<string, string>();
  let next = 0xe000;
  const mapped = Array.from(word, (ch) => {
    if (ch.length === 1) return ch;
    let standIn = standIns.get(ch);
    if (standIn === undefined) {
      while (word.includes(String.fromCharCode(next))) next++;
      standIn = String.fromCharCode(next++);
      standIns.set(ch, standIn);
      originals.set(standIn, ch);
    }
    return standIn;
  }).join("");
  return Array.from(runSteps(mapped), (ch) => originals.get(ch) ?? ch).join("");
}

function stemUncached(word: string): string {
  const lower = word.toLowerCase();
  // nltk looks the *unlowered* word up in the pool (so "Skies" is stemmed by the rules to "ski").
  const irregular = IRREGULAR_FORMS.get(word);
  if (irregular !== undefined) return irregular;
  if (codePointLength(word) <= 2) return lower;
  return hasAstral(lower) ? stemCodePoints(lower) : runSteps(lower);
}

const CACHE_LIMIT = 50_000;
const cache = new Map<string, string>();

/** `PorterStemmer().stem(word)` (NLTK_EXTENSIONS, lowercasing). Results are memoised (bounded). */
export function porterStem(word: string): string {
  let stem = cache.get(word);
  if (stem === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    stem = stemUncached(word);
    cache.set(word, stem);
  }
  return stem;
}
