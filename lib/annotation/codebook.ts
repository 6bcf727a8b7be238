/**
 * The codebooks annotators see next to each task, taken from the papers:
 * - claim codes: CRScore Appendix D.1, Table 8 (1, 0, -1, 2) and the sheets' -2 "incomplete";
 * - error types: CRScore Table 12;
 * - Likert rules of thumb: CRScore Table 7;
 * - reference-based grades: GradedReviews section 4.3;
 * - comment filtering: c-CRAB section 4.2.1;
 * - degrees of matching a human comment: c-CRAB section 5.2.
 */
import type { ClaimCode, ClaimErrorType } from "@/lib/generated/prisma/enums";

export interface ClaimCodeInfo {
  code: ClaimCode;
  /** The number in the CRScore sheets, typed on the keyboard ("-" then a digit for negatives). */
  value: 1 | 0 | -1 | 2 | -2;
  label: string;
  description: string;
}

export const CLAIM_CODE_INFO: readonly ClaimCodeInfo[] = [
  { code: "CORRECT", value: 1, label: "Correct", description: "Concrete evidence confirms the claim (diff, source files, or domain knowledge)." },
  { code: "INCORRECT", value: 0, label: "Incorrect", description: "Concrete evidence contradicts the claim." },
  { code: "UNVERIFIABLE", value: -1, label: "Unverifiable", description: "No evidence confirms or contradicts the claim, even after reading the files." },
  { code: "AMBIGUOUS", value: 2, label: "Ambiguous", description: "Underspecified: several interpretations, unclear what to test." },
  { code: "INCOMPLETE", value: -2, label: "Incomplete", description: "The generated claim is truncated or unfinished." },
];

export const CLAIM_CODE_BY_VALUE = new Map<number, ClaimCodeInfo>(CLAIM_CODE_INFO.map((info) => [info.value, info]));
export const CLAIM_CODE_BY_NAME = new Map<ClaimCode, ClaimCodeInfo>(CLAIM_CODE_INFO.map((info) => [info.code, info]));

export interface ErrorTypeInfo {
  type: ClaimErrorType;
  /** Digit after the `e` prefix key. */
  key: number;
  label: string;
  description: string;
}

/** CRScore Table 12, in order of frequency. */
export const ERROR_TYPE_INFO: readonly ErrorTypeInfo[] = [
  { type: "COMPREHENSION", key: 1, label: "Comprehension", description: "Misreads the change (e.g. takes removed lines for added ones)." },
  { type: "OVER_GENERALIZATION", key: 2, label: "Over-generalization", description: "An incorrect assumption or generalization from the change." },
  { type: "REASONING", key: 3, label: "Reasoning", description: "Wrong logic applied to the change." },
  { type: "KNOWLEDGE", key: 4, label: "Knowledge", description: "Incorrect domain knowledge." },
  { type: "LOCALIZATION", key: 5, label: "Localization", description: "Misplaces where the change happened." },
];

export const ERROR_TYPE_BY_KEY = new Map<number, ErrorTypeInfo>(ERROR_TYPE_INFO.map((info) => [info.key, info]));

/** CRScore Table 7: rules of thumb per dimension and score. */
export const LIKERT_RULES: Readonly<Record<string, { summary: string; scores: Readonly<Record<number, string>> }>> = {
  conciseness: {
    summary: "How much of the review is related to the claims and issues.",
    scores: {
      1: "None of the review is related to the claims+issues.",
      2: "Some of the review is related to the claims+issues.",
      3: "Roughly half of the review is related to the claims+issues.",
      4: "Most of the review is related to the claims+issues.",
      5: "Basically the whole review is related to the claims+issues.",
    },
  },
  comprehensiveness: {
    summary: "How many of the claims and issues the review covers.",
    scores: {
      1: "The review doesn't cover any of the claims+issues.",
      2: "The review covers at least 1 claim or issue.",
      3: "The review covers roughly half the claims+issues.",
      4: "The review covers more than half / most of the claims+issues.",
      5: "The review covers practically all the claims+issues.",
    },
  },
  relevance: {
    summary:
      "Between conciseness and comprehensiveness; if one of them is limiting (very low), relevance is limited by it. E.g. a highly concise review with very low comprehensiveness gets a relevance close to its comprehensiveness.",
    scores: {},
  },
};

/** GradedReviews section 4.3: grade of a generated review against the reference review. */
export const REFERENCE_GRADES: readonly { grade: number; label: string; description: string }[] = [
  { grade: 5, label: "Perfect", description: "The generated review is identical to the reference review." },
  { grade: 4, label: "Excellent", description: "Essentially equivalent to the reference review, though the wording differs." },
  { grade: 3, label: "Good", description: "Accurately and explicitly addresses some comments or suggestions of the reference review." },
  { grade: 2, label: "Fair", description: "Only loosely related to the reference review." },
  { grade: 1, label: "Poor", description: "Unrelated to the reference review." },
];

/** c-CRAB section 4.2.1: the two labels of review filtering. */
export const COMMENT_FILTER_LABELS = {
  high: {
    label: "High quality",
    description: "Identifies a specific, actionable and objectively verifiable issue in the patch.",
  },
  low: {
    label: "Low quality",
    description: "No concrete action item: conversation, acknowledgement, praise, a clarification request, or a concern that cannot be validated by a test.",
  },
} as const;

/** How much of a human comment's concern a system's comment raises, in scale order (ordinal). */
export const MATCH_DEGREES = ["none", "partly", "fully"] as const;
export type MatchDegree = (typeof MATCH_DEGREES)[number];
