/**
 * Reading a score out of a model's answer. The prompts ask for a bare number (GradedReviews,
 * CRScore) or a small JSON object (SWE-Judge), but models add words, markdown and code fences;
 * parsing is lenient about those and strict about the range, and throws JudgeParseError with
 * the raw answer when it does not name exactly one score in range (the caller asks again).
 */
import { z } from "zod";
import { JudgeParseError } from "./errors";

export interface ScoreRange {
  min: number;
  max: number;
  /** Whether only whole numbers count (a grade); "4.0" is whole, "4.5" is not. */
  integer: boolean;
}

export const GRADE_1_5: ScoreRange = { min: 1, max: 5, integer: true };
/** SWE-Judge §3.1: every strategy answers on 0-100 whatever the dataset's scale. */
export const PERCENT: ScoreRange = { min: 0, max: 100, integer: false };

/** A number standing alone: not inside a word (P1a, gpt-4o), an identifier, a version or a range's second end. */
const NUMBER = String.raw`-?\d+(?:\.\d+)?(?![\w]|\.\d)`;
const STANDALONE = new RegExp(String.raw`(?<![\w.\-])${NUMBER}`, "g");
/** "Score: 4", "grade = 4", "rating is **4**", "Grade=4", `"score": 4`. */
const LABELLED = new RegExp(String.raw`\b(?:score|grade|rating)\b["']?\s*(?:[:=]|is)?\s*\**\s*(${NUMBER})`, "gi");

const inRange = (value: number, range: ScoreRange) => Number.isFinite(value) && value >= range.min && value <= range.max && (!range.integer || Number.isInteger(value));

const describe = (range: ScoreRange) => `${range.integer ? "an integer" : "a number"} from ${range.min} to ${range.max}`;

const excerpt = (text: string) => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);

/** "4 out of 5", "72.5/100": a score written against the scale's maximum. */
const OUT_OF = new RegExp(String.raw`(?<![\w.\-])(${NUMBER})\s*(?:/|out of)\s*(\d+)(?![\w]|\.\d)`, "gi");

/**
 * The score in a free-text answer, read only when the answer names one score (GradedReviews
 * §5.2, fourth measure: any other answer is asked again, never mined for a number):
 *  - labelled numbers ("Grade: 4", "rating is **4**") that all agree, in range;
 *  - else "N out of MAX" / "N/MAX" with the scale's maximum;
 *  - else the answer's only standalone number ("4", "4.0", "100%").
 * "mentions 2 issues … I rate it 4" names two numbers and is refused; "4.5" is one number (not
 * 4), and "-1" is below a 1-5 scale.
 */
export function parseScore(text: string, range: ScoreRange): number {
  const refuse = (why: string) => new JudgeParseError(`expected ${describe(range)}${why}, got ${excerpt(text)}`, text);
  const labelled = [...new Set([...text.matchAll(LABELLED)].map((m) => Number(m[1])))];
  if (labelled.length > 1) throw refuse(" (the answer labels several scores)");
  if (labelled.length === 1) {
    if (inRange(labelled[0], range)) return labelled[0];
    throw refuse("");
  }
  const outOf = [...new Set([...text.matchAll(OUT_OF)].filter((m) => Number(m[2]) === range.max).map((m) => Number(m[1])))];
  if (outOf.length === 1 && inRange(outOf[0], range)) return outOf[0];
  const numbers = [...new Set([...text.matchAll(STANDALONE)].map((m) => Number(m[0])))];
  if (numbers.length === 1 && inRange(numbers[0], range)) return numbers[0];
  throw refuse(numbers.length > 1 ? " (the answer names several numbers)" : "");
}

const jsonAnswerSchema = z
  .object({
    score: z.union([z.number(), z.string()]).optional(),
    grade: z.union([z.number(), z.string()]).optional(),
    reason: z.string().optional(),
  })
  .transform((o) => ({ score: o.score ?? o.grade, reason: o.reason ?? null }));

/** The outermost `{…}` of the answer parsed as JSON (code fences and surrounding prose ignored), or undefined. */
function embeddedJson(text: string): unknown {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

/**
 * A `{"score": …, "reason": …}` answer ("grade" is accepted for "score"). When the answer has
 * no such object, or its score is not a number in range, the free-text rule of `parseScore`
 * applies to the whole answer and the reason is null.
 */
export function parseJsonScore(text: string, range: ScoreRange): { score: number; reason: string | null } {
  const parsed = jsonAnswerSchema.safeParse(embeddedJson(text));
  if (parsed.success && parsed.data.score !== undefined) {
    const raw = parsed.data.score;
    const score = typeof raw === "number" ? raw : raw.trim() === "" ? Number.NaN : Number(raw);
    if (inRange(score, range)) return { score, reason: parsed.data.reason };
  }
  return { score: parseScore(text, range), reason: null };
}
