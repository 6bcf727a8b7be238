/**
 * A judge rater's prompt and answer. The prompt is a template with named variables, filled per
 * item; its prompt version is the SHA-256 of the template's text. The answer is a JSON object
 * `{"answer": …, "reason": …}`, read leniently about fences and prose and strictly about the
 * answer, which must be one of the question's options (or, for links, claim numbers in range).
 */
import { JudgeParseError } from "./errors";
import { sha256 } from "./cache";
import type { ChatMessage } from "./types";
import type { JudgeAnswerValue, JudgeQuestion } from "@/lib/tasks/types";

/** What one item gives the template's variables. */
export interface JudgeItem {
  id: string;
  /** The code change the item belongs to (for a review comment: its file). */
  codeChangeId: string;
  diff: string;
  oldFile: string;
  newFile: string;
  /** The text judged: the claim, the review or the review comment. */
  text: string;
  /** The human reference review (reference grading), "" otherwise. */
  reference: string;
  /** The claims and smells a review may address (the links question), in the order they are numbered. */
  claims: { id: string; text: string }[];
  /** A review comment's linked test, if any. */
  test: string | null;
}

/**
 * The variables a template may name, as `{{name}}`: the question, its scale (the allowed answers)
 * and codebook (each answer with its definition), the change's diff and old and new file, the
 * item judged (the claim, review or review comment), the reference review, the numbered claims
 * and smells (links), and a review comment's linked test.
 */
export const TEMPLATE_VARIABLES = ["question", "scale", "codebook", "diff", "old_file", "new_file", "item", "reference", "claims", "test"] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

export const raterPromptVersion = (template: string) => sha256(template);

/** The variables' values for one item and question. */
export function templateValues(question: JudgeQuestion, item: JudgeItem): Record<TemplateVariable, string> {
  const links = question.options.length === 0;
  return {
    question: question.text,
    scale: links ? "a JSON list of claim numbers, e.g. [1, 3], or [] for none" : question.options.map((o) => o.answer).join(", "),
    codebook: links ? "" : question.options.map((o) => `- ${o.answer}: ${o.label}${o.description ? `. ${o.description}` : ""}`).join("\n"),
    diff: item.diff,
    old_file: item.oldFile,
    new_file: item.newFile,
    item: item.text,
    reference: item.reference,
    claims: item.claims.map((c, i) => `${i + 1}. ${c.text}`).join("\n"),
    test: item.test ?? "",
  };
}

const VARIABLE = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** What is wrong with a template, or null: empty, or naming a variable there is not. */
export function templateProblem(template: string): string | null {
  if (!template.trim()) return "the prompt is empty";
  const unknown = [...new Set([...template.matchAll(VARIABLE)].map((m) => m[1]).filter((name) => !(TEMPLATE_VARIABLES as readonly string[]).includes(name)))];
  if (unknown.length > 0) return `the prompt names ${unknown.map((n) => `{{${n}}}`).join(", ")}, which ${unknown.length > 1 ? "are not variables" : "is not a variable"} (variables: ${TEMPLATE_VARIABLES.map((n) => `{{${n}}}`).join(", ")})`;
  return null;
}

/** The template with every `{{variable}}` filled; an unknown name is left as written. */
export function renderTemplate(template: string, values: Record<TemplateVariable, string>): string {
  return template.replace(VARIABLE, (whole, name: string) => (name in values ? values[name as TemplateVariable] : whole));
}

export function raterMessages(template: string, question: JudgeQuestion, item: JudgeItem): ChatMessage[] {
  return [{ role: "user", content: renderTemplate(template, templateValues(question, item)) }];
}

/** The outermost `{…}` of the text as JSON, or undefined. */
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

const excerpt = (text: string) => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);

/**
 * The answer and reason in a judge's reply, or JudgeParseError with the raw reply. An option is
 * matched by its word or label, case and surrounding spaces ignored ("Yes", "CORRECT", "4");
 * a links answer is a list of claim numbers from 1 to the number of claims.
 */
export function parseRaterAnswer(text: string, question: JudgeQuestion, claims = 0): { answer: JudgeAnswerValue; reason: string } {
  const json = embeddedJson(text);
  const object = json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  const raw = object && "answer" in object ? object.answer : text.trim();
  const reason = object && typeof object.reason === "string" ? object.reason : "";
  if (question.options.length === 0) {
    const list = Array.isArray(raw) ? raw : typeof raw === "string" ? (() => { try { return JSON.parse(raw) as unknown; } catch { return null; } })() : null;
    if (!Array.isArray(list) || !list.every((n) => Number.isInteger(n) && n >= 1 && n <= claims)) {
      throw new JudgeParseError(`expected a list of claim numbers from 1 to ${claims}, got ${excerpt(text)}`, text);
    }
    return { answer: [...new Set(list as number[])].sort((a, b) => a - b), reason };
  }
  const said = String(raw ?? "").trim().toLowerCase();
  const option = question.options.find((o) => o.answer.toLowerCase() === said || o.label.toLowerCase() === said);
  if (!option || typeof raw === "object") throw new JudgeParseError(`expected one of ${question.options.map((o) => o.answer).join(", ")}, got ${excerpt(text)}`, text);
  return { answer: option.answer, reason };
}

/** The most frequent of the trials' answers (a tie goes to the first given), with its first reason. */
export function majorityAnswer(answers: readonly { answer: JudgeAnswerValue; reason: string }[]): { answer: JudgeAnswerValue; reason: string } {
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(JSON.stringify(a.answer), (counts.get(JSON.stringify(a.answer)) ?? 0) + 1);
  let best = answers[0];
  for (const a of answers) if (counts.get(JSON.stringify(a.answer))! > counts.get(JSON.stringify(best.answer))!) best = a;
  return best;
}
