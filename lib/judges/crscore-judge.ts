/**
 * CRScore's LLM-as-a-judge baseline (LaaJ, CRScore §4.4 and Appendix D.4): reference-free, the
 * model sees the code change and the review and rates the review 1-5. The paper's prompt rates
 * relevance, defined through conciseness and comprehensiveness; the two other dimensions (§3.1)
 * are our extension with the same template and the paper's definitions. §4.4 says LaaJ compares
 * against the references, but the D.4 prompt shows none; we follow the prompt.
 */
import { askParsed } from "./ask";
import type { ChatClient } from "./client";
import { GRADE_1_5, parseScore } from "./parse";
import { clip, tagged } from "./text";
import type { ChatMessage, JudgeResult } from "./types";

/** Bumped whenever the wording of the messages changes. */
export const CRSCORE_JUDGE_PROMPT_VERSION = "crscore-laaj-v1";

export const CRSCORE_DIMENSIONS = ["relevance", "conciseness", "comprehensiveness"] as const;
export type CrscoreDimension = (typeof CRSCORE_DIMENSIONS)[number];

const CONCISE = "A concise review contains very little text that is not related to the code change.";
const COMPREHENSIVE = "A comprehensive review contains all the information about the code change that a review should cover.";

/** What each dimension means, in the words of D.4 (relevance) and §3.1. */
const DEFINITIONS: Readonly<Record<CrscoreDimension, string>> = {
  relevance: `A relevant review is one which is both concise and comprehensive. ${CONCISE} ${COMPREHENSIVE} A relevant review is comprehensive while staying concise.`,
  conciseness: `${CONCISE} It conveys only the necessary information, and does so efficiently.`,
  comprehensiveness: `${COMPREHENSIVE} It conveys all the necessary information.`,
};

export interface CrscoreJudgeInput {
  review: string;
  codeChange: string;
  /** "Python", "Java", "JavaScript" …; omitted from the prompt when unknown. */
  language?: string | null;
}

/** The D.4 system and task prompts in our words, for one dimension. */
export function crscoreJudgeMessages(input: CrscoreJudgeInput, dimension: CrscoreDimension = "relevance"): ChatMessage[] {
  const change = input.language ? `${input.language} code change` : "code change";
  const user = [
    `You will be asked to rate the ${dimension} of reviews of code changes. ${DEFINITIONS[dimension]}`,
    `Now read the ${change} and the review below, and rate the ${dimension} of the review on a scale of 1 to 5. Answer with a single integer from 1 to 5.`,
    `Code change:\n${tagged("code_change", input.codeChange)}`,
    `Review:\n${tagged("review", input.review)}`,
    "Your score:",
  ].join("\n\n");
  return [
    { role: "system", content: `You are a highly skilled software engineer with a lot of experience in reviewing code changes. Your task is to rate the ${dimension} of reviews of code changes.` },
    { role: "user", content: user },
  ];
}

/** One rating; `value` is null ("no-valid-grade") when no answer held an integer 1-5 after `attempts` requests. */
export async function rateReviewDimension(
  client: ChatClient,
  input: CrscoreJudgeInput,
  dimension: CrscoreDimension,
  options: { attempts?: number; signal?: AbortSignal } = {},
): Promise<JudgeResult> {
  const asked = await askParsed(client, crscoreJudgeMessages(input, dimension), (t) => parseScore(t, GRADE_1_5), options.attempts ?? 3, options.signal);
  const detail = { dimension, outputs: asked.outputs.map((o) => clip(o)) };
  return asked.ok ? { value: asked.value, detail } : { value: null, reason: "no-valid-grade", detail };
}
