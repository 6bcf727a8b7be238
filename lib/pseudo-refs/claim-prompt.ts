/**
 * The prompt of LLM claim generation (CRScore §3.2): claims about a code change on two levels,
 * low-level changes and high-level implications, in a fixed plain-text answer format that is
 * parsed strictly (a malformed answer is asked again, then refused, never mined for lines).
 * A study may have its own template (Study.claimPrompt); {{language}}, {{file_path}} and
 * {{diff}} are filled in, and the template's hash goes into every signature.
 */
import { JudgeParseError, sha256 } from "@/lib/judges";

export const DEFAULT_CLAIM_PROMPT = [
  "You are an experienced software engineer reviewing a code change.",
  "",
  "Describe the {{language}} code change below (file {{file_path}}) in two lists:",
  "1. CHANGES: the low-level changes, what was added, removed or modified, one precise claim per line.",
  "2. IMPLICATIONS: the high-level implications, what the change means for the behaviour, the functionality or the design, or what the developer probably intended, one per line.",
  "Every line must be a complete sentence that can be checked against the diff. Do not review the code and do not suggest changes.",
  "",
  "Answer in exactly this format and nothing else:",
  "CHANGES:",
  "- <claim>",
  "IMPLICATIONS:",
  "- <implication>",
  "",
  "The diff:",
  "{{diff}}",
].join("\n");

export const CLAIM_PROMPT_PLACEHOLDERS = ["{{language}}", "{{file_path}}", "{{diff}}"] as const;

/** The template in force: the study's own, else the product's. */
export const claimPromptOf = (study: { claimPrompt: string }) => (study.claimPrompt.trim() ? study.claimPrompt : DEFAULT_CLAIM_PROMPT);

export const promptVersion = (template: string) => sha256(template);

/** Why a template cannot be used, or null. */
export function claimPromptProblem(template: string): string | null {
  if (!template.includes("{{diff}}")) return "the prompt must contain {{diff}}, where the code change goes";
  if (template.length > 20_000) return "the prompt is longer than 20,000 characters";
  return null;
}

export function fillClaimPrompt(template: string, change: { language: string; filePath: string; diff: string }): string {
  const values: Record<string, string> = { "{{language}}": change.language || "unknown language", "{{file_path}}": change.filePath || "(no path)", "{{diff}}": change.diff };
  return template.replace(/\{\{(language|file_path|diff)\}\}/g, (m) => values[m]);
}

export interface ParsedClaims {
  changes: string[];
  implications: string[];
}

const HEADING = /^\s*(?:#+\s*|\*\*)?(changes|implications)\s*(?:\*\*)?\s*:?\s*(?:\*\*)?\s*$/i;
const ITEM = /^\s*(?:[-*•]|\d+[.)])\s+(.+?)\s*$/;

/**
 * The two lists of an answer in the prompt's format. Refused (JudgeParseError) when a heading is
 * missing, no change is listed, or a line under a heading is not a list item.
 */
export function parseClaims(text: string): ParsedClaims {
  const lists: Record<"changes" | "implications", string[]> = { changes: [], implications: [] };
  let current: keyof typeof lists | null = null;
  const seen = new Set<string>();
  const refuse = (why: string) => new JudgeParseError(`malformed claims (${why}): ${JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)}`, text);
  for (const line of text.replace(/```\w*/g, "").split("\n")) {
    if (!line.trim()) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      current = heading[1].toLowerCase() as keyof typeof lists;
      seen.add(current);
      continue;
    }
    const item = ITEM.exec(line);
    if (!current) throw refuse("text before the CHANGES heading");
    if (!item) throw refuse(`a line that is not a list item: ${JSON.stringify(line.trim().slice(0, 80))}`);
    lists[current].push(item[1]);
  }
  if (!seen.has("changes") || !seen.has("implications")) throw refuse("the CHANGES and IMPLICATIONS headings are both required");
  if (lists.changes.length === 0) throw refuse("no change listed");
  return lists;
}
