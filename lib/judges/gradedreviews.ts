/**
 * LLM-based Scoring of GradedReviews (§5.2): the model grades a generated review against its
 * reference on the 1-5 scale of §4.3, with the paper's four measures against randomness:
 *  1. an exact match is graded 5 without asking the model;
 *  2. the model grades three times; the most frequent grade wins, the median when all differ;
 *  3. a 5 from the model becomes 4, since only identical reviews are perfect;
 *  4. an answer outside 1-5 is asked again, at most three times; then the review gets no grade.
 */
import { exactMatch } from "@/lib/metrics";
import { askParsed } from "./ask";
import type { ChatClient } from "./client";
import { GRADE_1_5, parseScore } from "./parse";
import { clip, tagged } from "./text";
import type { ChatMessage, JudgeResult } from "./types";

/** Bumped whenever the wording of the messages changes. */
export const GRADEDREVIEWS_PROMPT_VERSION = "gradedreviews-v1";

export interface GradedReviewsInput {
  generated: string;
  reference: string;
  /** The code change; the paper grades without it (§4.3), so it is sent only with `includeCode`. */
  codeChange?: string | null;
}

export interface GradedReviewsOptions {
  /** Grading trials, odd. Default 3 (second measure). */
  trials?: number;
  /** Requests per trial until a grade in 1-5 is read. Default 3 (fourth measure). */
  attemptsPerTrial?: number;
  /** Show the model the code change as context. Default false, as in the paper. */
  includeCode?: boolean;
  signal?: AbortSignal;
}

const SYSTEM = [
  "You are an experienced code reviewer, and you will grade a generated code review.",
  "Work out your answer as if you graded it ten times privately, and give the grade you arrived at most often.",
  "Follow the requested output format exactly; do not explain your answer.",
].join(" ");

/** The grading criteria of §4.3 / §5.2, one per grade, from best to worst. */
export const GRADEDREVIEWS_CRITERIA: readonly string[] = [
  "Grade 5: the generated review is identical to the reference review.",
  "Grade 4: the generated review is essentially equivalent to the reference review, although it is worded differently.",
  "Grade 3: the generated review explicitly and correctly states some of the comments or suggestions made in the reference review.",
  "Grade 2: the generated review is only loosely related to the reference review.",
  "Grade 1: the generated review is unrelated in meaning to the reference review.",
];

/** The §5.2 prompt in our words: system role, the five criteria, the reviews (and the code change when asked). */
export function gradedReviewsMessages(input: GradedReviewsInput, includeCode = false): ChatMessage[] {
  const code =
    includeCode && input.codeChange
      ? ["The code change both reviews comment on is given for context only: grade by comparison with the reference review, not by your own review of the code.", tagged("code_change", input.codeChange)]
      : [];
  const user = [
    "Compare the generated code review with the reference code review and grade the generated one by these criteria:",
    GRADEDREVIEWS_CRITERIA.map((c, i) => `${i + 1}. ${c}`).join("\n"),
    "Output only the grade: a single integer from 1 to 5, with no explanation.",
    ...code,
    `Generated code review:\n${tagged("generated_review", input.generated)}`,
    `Reference code review:\n${tagged("reference_review", input.reference)}`,
  ].join("\n\n");
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: user },
  ];
}

/**
 * Second measure: the most frequent grade, or the median when no grade is more frequent than
 * all others (5, 4, 3 → 4). With an odd number of trials the median is one of the grades.
 */
export function aggregateTrialGrades(grades: readonly number[]): number {
  if (grades.length === 0) throw new RangeError("no grades to aggregate");
  const counts = new Map<number, number>();
  for (const g of grades) counts.set(g, (counts.get(g) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const modes = [...counts].filter(([, n]) => n === top);
  if (modes.length === 1) return modes[0][0];
  const sorted = [...grades].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1];
}

/**
 * Third measure, applied to each answer of the model before the second: its 5 becomes 4
 * (identical reviews never reach the model, see the first). For three trials applying it to
 * the aggregate instead gives the same grade.
 */
export const capModelGrade = (grade: number) => Math.min(grade, 4);

/**
 * Grades one generated review. `detail.grades` are the model's own answers (before the third
 * measure); `value` is null ("no-valid-grade") when a trial never gave a grade in 1-5.
 */
export async function gradeAgainstReference(client: ChatClient, input: GradedReviewsInput, options: GradedReviewsOptions = {}): Promise<JudgeResult> {
  const trials = options.trials ?? 3;
  if (!Number.isInteger(trials) || trials < 1 || trials % 2 === 0) throw new RangeError(`trials must be a positive odd integer, got ${trials}`);
  if (exactMatch(input.generated, input.reference) === 1) return { value: 5, detail: { procedure: "exact-match" } };

  const messages = gradedReviewsMessages(input, options.includeCode ?? false);
  const parse = (text: string) => parseScore(text, GRADE_1_5);
  // Trials are separate samples (GradedReviews' second measure needs a temperature above 0 for them to differ).
  const asked = await Promise.all(Array.from({ length: trials }, (_, t) => askParsed(client, messages, parse, options.attemptsPerTrial ?? 3, options.signal, { promptVersion: GRADEDREVIEWS_PROMPT_VERSION, sample: `trial ${t}` })));
  const outputs = asked.map((a) => a.outputs.map((o) => clip(o)));
  const grades = asked.flatMap((a) => (a.ok ? [a.value] : []));
  if (grades.length < trials) return { value: null, reason: "no-valid-grade", detail: { procedure: "llm", grades, outputs } };
  return { value: aggregateTrialGrades(grades.map(capModelGrade)), detail: { procedure: "llm", grades, outputs } };
}
