/**
 * Times every registered reference metric over 5,164 review/reference pairs, the size of the full
 * GradedReviews benchmark. The pairs are synthetic but shaped like it (references ~18 words,
 * reviews ~12, long tails to ~250; code identifiers and punctuation; partial word overlap) and
 * generated from a fixed seed, so runs are comparable.
 */
import { REFERENCE_METRICS } from "../../lib/metrics";
import { formatTiming, measure } from "./support/timing";

export const PAIRS = 5164;
const SEED = 20240611;

const WORDS = (
  "the a this that is it to of in for be we should can you use not please why here there method " +
  "variable null check return value test tests failing add remove rename unused import constant " +
  "final private public static class interface exception error handle log message string list map " +
  "instead consider maybe could would need needed because nit typo comment code change changes " +
  "field parameter argument default config timeout thread lock synchronized async callback"
).split(" ");
const IDENTIFIERS = ["getName()", "mset.mirrorInfo()", "HashMap", "my_var", "isEmpty()", "StringBuilder", "3.14", "i++"];
const PUNCTUATION = [".", ",", "?", ":", "!", "`"];

/** mulberry32: a small deterministic PRNG. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function makePairs(count: number): [review: string, reference: string][] {
  const random = prng(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  // Log-normal-ish lengths: median near `median`, capped at 250 words.
  const length = (median: number) => Math.min(250, Math.max(1, Math.round(median * Math.exp((random() - 0.5) * 2.2))));
  const word = () => (random() < 0.12 ? pick(IDENTIFIERS) : pick(WORDS)) + (random() < 0.1 ? pick(PUNCTUATION) : "");
  return Array.from({ length: count }, () => {
    const reference = Array.from({ length: length(16) }, word);
    // Reviews reuse about a third of their words from the reference.
    const review = Array.from({ length: length(10) }, () => (random() < 0.35 ? pick(reference) : word()));
    return [review.join(" "), reference.join(" ")];
  });
}

/**
 * CPU time of each reference implementation's scoring loop over the same kind of pairs, measured
 * side by side on this machine kind: the paper's `BLEU.py`, sacreBLEU 2.6.0 and
 * rouge-score's code path. Python's sacrebleu and rouge-score are not installed here (and cannot
 * be: no network beyond npm and Debian), so these are figures recorded once, not same-run ratios.
 */
const PYTHON_MS: Partial<Record<string, number>> = {
  "bleu-gradedreviews": 568,
  sacrebleu: 583,
  chrf: 632,
  chrfpp: 728,
  "rouge-l": 290,
  "rouge-l-stem": 1033,
};

export default async function run(): Promise<void> {
  const pairs = makePairs(PAIRS);
  for (const metric of REFERENCE_METRICS) {
    let checksum = 0;
    const t = measure(() => {
      checksum = 0;
      for (const [review, reference] of pairs) checksum += metric.score(review, reference);
    }, 5);
    const python = PYTHON_MS[metric.name];
    const ratio = python === undefined ? "" : `, ${(python / t.cpuMs).toFixed(1)}x faster than the Python reference's ${python} ms CPU (a recorded figure, not measured in this run)`;
    console.log(`${metric.name}: ${formatTiming(t)} for ${pairs.length} pairs (mean ${(checksum / pairs.length).toFixed(4)})${ratio}`);
  }
}
