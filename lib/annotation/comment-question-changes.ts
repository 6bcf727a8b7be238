/**
 * What editing a study's comment questions means for the answers already stored. Prompts,
 * labels, descriptions, added questions and added codebook options change no stored answer and
 * are always allowed; removing (or renaming) a question or a codebook option that answers or lead
 * decisions hold, changing a question's kind or whom it is asked of, or taking away a
 * justification that annotators wrote, is refused, naming how many answers it would affect.
 */
import type { CommentQuestion } from "./comment-questions";

/** The stored answers a study's comment questions bear on (lib/data/comment-questions.ts counts them). */
export interface CommentQuestionUsage {
  /** Per question key, per stored value as text ("true", "false", a code, a number): annotators' answers. */
  answers: Record<string, Record<string, number>>;
  /** Per question key: annotators' justifications. */
  notes: Record<string, number>;
  /** Per question key, per value as text: lead decisions (consensus and gold answers). */
  decisions: Record<string, Record<string, number>>;
}

export const NO_COMMENT_QUESTION_USAGE: CommentQuestionUsage = { answers: {}, notes: {}, decisions: {} };

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const sum = (counts: Record<string, number> | undefined) => Object.values(counts ?? {}).reduce((a, n) => a + n, 0);
const KIND_NAMES: Record<CommentQuestion["kind"], string> = { binary: "yes/no", choice: "codebook choice", likert: "Likert score", grade: "1-5 grade", match: "matching" };

/** "12 stored answers and 1 lead decision", or "" when there is neither. */
function held(answers: number, decisions: number): string {
  return [answers ? plural(answers, "stored answer") : "", decisions ? plural(decisions, "lead decision") : ""].filter(Boolean).join(" and ");
}

/** The stored answers and lead decisions of one question (all values, or one value). */
export function questionHeld(usage: CommentQuestionUsage, key: string, value?: string): string {
  const pick = (counts: Record<string, number> | undefined) => (value === undefined ? sum(counts) : (counts?.[value] ?? 0));
  return held(pick(usage.answers[key]), pick(usage.decisions[key]));
}

/** Why the change from `current` to `next` may not be saved: one sentence per refused part (empty: allowed). */
export function commentQuestionRefusals(current: readonly CommentQuestion[], next: readonly CommentQuestion[], usage: CommentQuestionUsage): string[] {
  const refusals: string[] = [];
  const nextByKey = new Map(next.map((q) => [q.key, q]));
  for (const question of current) {
    const after = nextByKey.get(question.key);
    const all = questionHeld(usage, question.key);
    if (!after) {
      if (all) refusals.push(`The question "${question.key}" cannot be removed or renamed: it has ${all}.`);
      continue;
    }
    if (after.kind !== question.kind) {
      if (all) refusals.push(`The question "${question.key}" cannot change from ${KIND_NAMES[question.kind]} to ${KIND_NAMES[after.kind]}: it has ${all}.`);
      continue;
    }
    if (question.kind === "binary" && after.kind === "binary" && question.withTest !== after.withTest && all)
      refusals.push(`The question "${question.key}" cannot change whether it is asked only of comments with a linked test: it has ${all}.`);
    if (question.kind === "choice" && after.kind === "choice") {
      const kept = new Set(after.options.map((o) => o.code));
      for (const option of question.options.filter((o) => !kept.has(o.code))) {
        const chosen = questionHeld(usage, question.key, option.code);
        if (chosen) refusals.push(`The option ${option.code} ("${option.label}") of "${question.key}" cannot be removed or renamed: ${chosen} chose it.`);
      }
    }
    const notes = usage.notes[question.key] ?? 0;
    if (after.justification === "none" && question.justification !== "none" && notes)
      refusals.push(`The question "${question.key}" cannot stop taking a justification: annotators wrote ${plural(notes, "justification")} for it.`);
  }
  return refusals;
}

/** What an allowed change means for stored work, for the lead to read after saving. */
export function commentQuestionNotes(current: readonly CommentQuestion[], next: readonly CommentQuestion[], usage: CommentQuestionUsage): string[] {
  const notes: string[] = [];
  const answered = Object.keys(usage.answers).length > 0;
  const currentKeys = new Set(current.map((q) => q.key));
  const added = next.filter((q) => !currentKeys.has(q.key));
  if (added.length && answered) notes.push(`Comments already answered have no answer to ${added.map((q) => `"${q.key}"`).join(", ")}; unsubmitted pull requests ask for it before submitting.`);
  for (const question of next) {
    const before = current.find((q) => q.key === question.key);
    if (before && before.justification !== "required" && question.justification === "required" && sum(usage.answers[question.key]))
      notes.push(`"${question.key}" now requires a justification: stored answers without one are kept; unsubmitted pull requests ask for it before submitting.`);
  }
  return notes;
}
