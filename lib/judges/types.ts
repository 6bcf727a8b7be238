/** Shared types of the LLM judges: chat messages, judge inputs and results, score scales. */

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** A JSON value, for result details stored as they are (MetricScore.detail). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A closed numeric scale such as the 1-5 grades of GradedReviews §4.3. */
export interface Scale {
  min: number;
  max: number;
}

/** The five-point scale shared by GradedReviews §4.3 and the CRScore Likert dimensions. */
export const FIVE_POINT: Scale = { min: 1, max: 5 };

/** What a judge may need besides the candidate and reference reviews. */
export interface JudgeContext {
  /** The code change (diff) the reviews comment on. */
  codeChange?: string | null;
  /** Language of the code change, e.g. "Python" (CRScore's prompt names it). */
  language?: string | null;
  /** Cancels the judge's pending requests. */
  signal?: AbortSignal;
}

/**
 * One judge's verdict on one review. `value` is null when the judge cannot give one (missing
 * input or unusable model output); `reason` then says why, in the stable kebab-case style of
 * the metric jobs ("no-reference-review", "no-valid-grade" …). `detail` is JSON to store as is.
 */
export interface JudgeResult {
  value: number | null;
  reason?: string;
  detail: JsonObject;
}
