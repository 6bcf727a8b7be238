/**
 * Registry of the reference-based text metrics, each scoring one candidate review against one
 * reference review. Names are stable identifiers for stored results; the signature records every
 * setting that changes a value (sacreBLEU style `key:value|…`) plus `impl`, the version of our port,
 * to be bumped whenever a value it returns changes.
 */
import { CHRF_SIGNATURE, CHRFPP_SIGNATURE, sentenceChrf } from "./chrf";
import { exactMatch, normalizedEditDistance } from "./edit-distance";
import { meteor } from "./meteor";
import { pySplit } from "./python-compat";
import { rougeL } from "./rouge";
import { SACREBLEU_SENTENCE_SIGNATURE, sentenceBleu } from "./sacrebleu";
import { codeReviewerBleu, gradedReviewsBleu } from "./smooth-bleu";

const IMPL = "impl:1";
const MOSES_BLEU = "smooth:moses-add1+floatmin|ref:shortest|scale:100|round:no";

export type MetricName =
  | "bleu-codereviewer"
  | "bleu-nostop"
  | "bleu-gradedreviews"
  | "sacrebleu"
  | "chrf"
  | "chrfpp"
  | "rouge-l"
  | "rouge-l-stem"
  | "meteor"
  | "edit-distance"
  | "exact-match";

export interface ReferenceMetric {
  readonly name: MetricName;
  readonly label: string;
  readonly signature: string;
  /** Closed range of possible values. */
  readonly range: readonly [min: number, max: number];
  /** False for distances, where lower means closer to the reference. */
  readonly higherIsBetter: boolean;
  readonly score: (candidate: string, reference: string) => number;
}

export const REFERENCE_METRICS: readonly ReferenceMetric[] = [
  {
    name: "bleu-codereviewer",
    label: "BLEU (CodeReviewer)",
    signature: `tok:wordpunct+splitPuncts+mteval-v11a|case:lc|stop:none|${MOSES_BLEU}|${IMPL}`,
    range: [0, 100],
    higherIsBetter: true,
    score: (candidate, reference) => codeReviewerBleu(candidate, reference, { removeStopwords: false }),
  },
  {
    name: "bleu-nostop",
    label: "BLEU w/o stopwords (CodeReviewer)",
    signature: `tok:wordpunct+splitPuncts+mteval-v11a|case:lc|stop:codereviewer-592|${MOSES_BLEU}|${IMPL}`,
    range: [0, 100],
    higherIsBetter: true,
    score: (candidate, reference) => codeReviewerBleu(candidate, reference, { removeStopwords: true }),
  },
  {
    name: "bleu-gradedreviews",
    label: "BLEU (GradedReviews)",
    signature: `tok:splitPuncts+mteval-v11a|case:lc|stop:none|${MOSES_BLEU}|${IMPL}`,
    range: [0, 100],
    higherIsBetter: true,
    score: gradedReviewsBleu,
  },
  {
    name: "sacrebleu",
    label: "sacreBLEU",
    signature: `${SACREBLEU_SENTENCE_SIGNATURE}|${IMPL}`,
    range: [0, 100],
    higherIsBetter: true,
    score: (candidate, reference) => sentenceBleu(candidate, [reference]).score,
  },
  {
    name: "chrf",
    label: "chrF",
    signature: `${CHRF_SIGNATURE}|${IMPL}`,
    range: [0, 100],
    higherIsBetter: true,
    score: (candidate, reference) => sentenceChrf(candidate, [reference], 0),
  },
  {
    name: "chrfpp",
    label: "chrF++",
    signature: `${CHRFPP_SIGNATURE}|${IMPL}`,
    range: [0, 100],
    higherIsBetter: true,
    score: (candidate, reference) => sentenceChrf(candidate, [reference], 2),
  },
  {
    name: "rouge-l",
    label: "ROUGE-L F",
    signature: `tok:rouge-score-ascii|stem:no|score:lcs-f1|${IMPL}`,
    range: [0, 1],
    higherIsBetter: true,
    score: (candidate, reference) => rougeL(reference, candidate, { useStemmer: false }).fmeasure,
  },
  {
    name: "rouge-l-stem",
    label: "ROUGE-L F (Porter stemmer)",
    signature: `tok:rouge-score-ascii|stem:nltk-porter|score:lcs-f1|${IMPL}`,
    range: [0, 1],
    higherIsBetter: true,
    score: (candidate, reference) => rougeL(reference, candidate, { useStemmer: true }).fmeasure,
  },
  {
    name: "meteor",
    label: "METEOR (exact+stem)",
    signature: `tok:whitespace|case:lc|match:exact+porter|wordnet:no|alpha:0.9|beta:3|gamma:0.5|${IMPL}`,
    range: [0, 1],
    higherIsBetter: true,
    score: (candidate, reference) => meteor([pySplit(reference)], pySplit(candidate)),
  },
  {
    name: "edit-distance",
    label: "Normalized edit distance",
    signature: `unit:codepoint|norm:max-length|${IMPL}`,
    range: [0, 1],
    higherIsBetter: false,
    score: (candidate, reference) => normalizedEditDistance(candidate, reference, "char"),
  },
  {
    name: "exact-match",
    label: "Exact match",
    signature: `norm:whitespace|case:mixed|${IMPL}`,
    range: [0, 1],
    higherIsBetter: true,
    score: exactMatch,
  },
];

const BY_NAME = new Map<string, ReferenceMetric>(REFERENCE_METRICS.map((metric) => [metric.name, metric]));

/** The metric registered under `name`, or undefined. */
export function getReferenceMetric(name: string): ReferenceMetric | undefined {
  return BY_NAME.get(name);
}
