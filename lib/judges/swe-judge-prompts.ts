/**
 * The evaluation strategies of SWE-Judge (§3.1, Figure 3) as prompts for code review: the
 * "user requirement" x is the code change under review, the generated artifact y the review
 * comment to judge, and the reference solution r the human reference review. Each strategy
 * answers on 0-100, whatever the human scale (§3.1, "Turning Strategies into Evaluators"). The
 * paper publishes abridged prompts with the [Task Description] / [Evaluation Criteria] /
 * [Evaluation Steps] / [Data] layout kept here; the wording is ours, adapted from code to reviews.
 */
import { tagged } from "./text";
import type { ChatMessage } from "./types";

/** Bumped whenever the wording of any strategy's messages changes. */
export const SWE_JUDGE_PROMPT_VERSION = "swe-judge-review-v1";

/** §3.2: P1a/P1b Direct Assess without/with the reference, P2 Rethink, P3 Equivalence, P4 Tests, P5 Key points. */
export const SWE_STRATEGIES = ["P1a", "P1b", "P2", "P3", "P4", "P5"] as const;
export type SweStrategy = (typeof SWE_STRATEGIES)[number];

export const SWE_STRATEGY_LABELS: Readonly<Record<SweStrategy, string>> = {
  P1a: "Direct Assess",
  P1b: "Direct Assess with reference",
  P2: "Direct Assess and Rethink",
  P3: "Equivalence Assess",
  P4: "Generate Tests and Assess",
  P5: "Analyze Reference and Assess",
};

export interface SweJudgeInput {
  /** The review comment to judge (y). */
  generated: string;
  /** The human reference review (r). */
  reference: string;
  /** The code change under review (x). */
  codeChange: string;
}

const SYSTEM = "You are an expert software engineer who reviews code changes and judges review comments written by others.";

const SCORE_FORMAT = 'Answer with a JSON object only: {"score": <number from 0 to 100>, "reason": "<one or two sentences>"}';

const section = (title: string, body: string) => `[${title}]\n${body}`;
const steps = (items: readonly string[]) => items.map((s, i) => `${i + 1}. ${s}`).join("\n");

/** A single-turn strategy prompt in the paper's four-part layout. */
function strategyMessages(parts: { task: string; criteria?: string; steps: readonly string[]; data: readonly string[]; format: string }): ChatMessage[] {
  const body = [
    section("Task Description", parts.task),
    ...(parts.criteria ? [section("Evaluation Criteria", parts.criteria)] : []),
    section("Evaluation Steps", steps(parts.steps)),
    section("Data", parts.data.join("\n\n")),
    parts.format,
  ].join("\n\n");
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: body },
  ];
}

const codeChangeData = (input: SweJudgeInput) => `Code change:\n${tagged("code_change", input.codeChange)}`;
const reviewData = (input: SweJudgeInput) => `Review comment:\n${tagged("review_comment", input.generated)}`;
const referenceData = (input: SweJudgeInput) => `Reference review (written by the project's reviewer):\n${tagged("reference_review", input.reference)}`;

/** Strategy 1, Direct Assess (§3.1): rate the comment's correctness; P1b also shows the reference. */
export function directAssessMessages(input: SweJudgeInput, withReference: boolean): ChatMessage[] {
  return strategyMessages({
    task: "Your task is to rate a review comment written for a code change, on one metric only: its correctness.",
    criteria:
      "Correctness (0-100): to what extent the review comment points out real issues of the code change and asks for changes that are right and needed. 0 means entirely wrong or beside the point; 100 means fully correct and to the point.",
    steps: ["Read the code change carefully.", "Read the review comment and check it against the code change.", "Assign a correctness score from 0 to 100."],
    data: [codeChangeData(input), reviewData(input), ...(withReference ? [referenceData(input)] : [])],
    format: SCORE_FORMAT,
  });
}

/**
 * Strategy 2, Direct Assess and Rethink (§3.1): the P1a conversation, its answer, then a request
 * to validate that score and reason and adjust the score a little, up when a reason against the
 * comment proves false, down when a reason in its favour does, unchanged when the reason holds.
 */
export function rethinkMessages(input: SweJudgeInput, previous: { output: string; score: number; reason: string | null }): ChatMessage[] {
  const rethink = [
    section("Task Description", "Your task is to recheck whether the reason and the score you just gave are proper."),
    section(
      "Evaluation Criteria",
      steps([
        "If a reason against the review comment is validated to be false, increase the score a bit.",
        "If a reason in favour of the review comment is validated to be false, decrease the score a bit.",
        "If the reason is validated to be true, do not change the score.",
      ]),
    ),
    section("Evaluation Steps", steps(["Only validate the previous score and reason.", "Reply with your adjusted score."])),
    section("Data", `Previous score: ${previous.score}\nPrevious reason: ${previous.reason ?? "(none given)"}`),
    SCORE_FORMAT,
  ].join("\n\n");
  return [...directAssessMessages(input, false), { role: "assistant", content: previous.output }, { role: "user", content: rethink }];
}

/** Strategy 3, Equivalence Assess (§3.1): are the comment and the reference semantically equivalent? */
export function equivalenceMessages(input: SweJudgeInput): ChatMessage[] {
  return strategyMessages({
    task: "Given two review comments on the same code change, your task is to assess whether they are semantically equivalent.",
    criteria: "Semantic equivalence (0-100): to what extent the two comments raise the same issues and ask for the same changes to the code, whatever their wording.",
    steps: [
      "Read the code change and both review comments carefully.",
      "Compare the issues they raise, the changes they ask for and the reasons they give, to determine whether they would lead the author to the same revision.",
      "Assign a semantic equivalence score from 0 to 100.",
    ],
    data: [codeChangeData(input), reviewData(input), referenceData(input)],
    format: SCORE_FORMAT,
  });
}

/** Strategy 4, step 1 (Figure 3): tests a correct comment must pass, from the change and the reference. */
export function generateTestsMessages(input: SweJudgeInput): ChatMessage[] {
  return strategyMessages({
    task: "Your task is to write tests that evaluate the correctness of review comments on this code change. The reference review shows what a correct comment says.",
    steps: [
      "Read the code change and the reference review.",
      "Identify the key aspects a correct comment must get right (the issue, where it is, why it matters, the change asked for) and the mistakes it must avoid.",
      "Write a diverse set of tests, each a yes/no question about a review comment.",
    ],
    data: [codeChangeData(input), referenceData(input)],
    format: "Answer with the numbered list of tests only.",
  });
}

/** Strategy 4, step 2 (Figure 3): to what extent does the comment pass the generated tests? */
export function passTestsMessages(input: SweJudgeInput, tests: string): ChatMessage[] {
  return strategyMessages({
    task: "Your task is to determine whether a review comment will pass all the given tests.",
    criteria: "To what extent is the review comment expected to pass the tests? 0 means it passes none; 100 means it passes all.",
    steps: ["Read the review comment and the tests.", "Determine for each test whether the review comment passes it.", "Assign a score from 0 to 100."],
    data: [reviewData(input), `Tests:\n${tagged("tests", tests)}`],
    format: SCORE_FORMAT,
  });
}

/** Strategy 5, step 1 (Figure 3): the key points that make the reference a correct review. */
export function keyPointsMessages(input: SweJudgeInput): ChatMessage[] {
  return strategyMessages({
    task: "Your task is to identify the core key points of the golden answer, the reference review of this code change.",
    steps: [
      "Read the code change.",
      "Analyze the reference review to identify its essential components: the issues it raises, the changes it asks for, and why.",
      "List the extracted key points.",
    ],
    data: [codeChangeData(input), referenceData(input)],
    format: "Answer with the numbered list of key points only.",
  });
}

/** Strategy 5, step 2 (Figure 3): to what extent does the comment capture those key points? */
export function keyPointsCoverageMessages(input: SweJudgeInput, keyPoints: string): ChatMessage[] {
  return strategyMessages({
    task: "Your task is to assess whether the review comment contains all the key points.",
    criteria: "Key points coverage (0-100): to what extent does the review comment accurately capture the essential key points?",
    steps: ["Read the review comment and the key points.", "Check which key points the review comment states correctly.", "Assign a key points coverage score from 0 to 100."],
    data: [reviewData(input), `Key points:\n${tagged("key_points", keyPoints)}`],
    format: SCORE_FORMAT,
  });
}
