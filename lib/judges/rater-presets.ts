/**
 * The shipped prompt templates of judge raters, in the product's own words: a plain one for
 * every question, GradedReviews §5.2's grading (its criteria; the run's trials and re-asks are
 * its second and fourth measures), CRScore's LLM-as-a-judge (Appendix D.4), SWE-Judge's Direct
 * Assess layout (§3.1, Figure 3) and a c-CRAB-style filter (§4.2.1). A lead's own text, such as
 * the wording a paper published, is another version of the same question (lib/data/judge-runs.ts).
 */
import { GRADEDREVIEWS_CRITERIA } from "./gradedreviews";
import type { JudgeQuestion } from "@/lib/tasks/types";

export interface RaterPreset {
  name: string;
  label: string;
  /** Whether the preset suits the question. */
  appliesTo(question: JudgeQuestion): boolean;
  text: string;
}

const JSON_ANSWER = 'Reply with one JSON object and nothing else: {"answer": <one of the allowed answers>, "reason": "<one sentence>"}.';

const PRODUCT: RaterPreset = {
  name: "product",
  label: "The product's plain prompt",
  appliesTo: () => true,
  text: `You are an expert code reviewer helping a research study label code review data.

Question: {{question}}

Allowed answers: {{scale}}
{{codebook}}

The code change (unified diff):
{{diff}}

The text to judge:
{{item}}

Reference review (may be empty):
{{reference}}

Numbered claims and smells about the change (may be empty):
{{claims}}

${JSON_ANSWER}`,
};

const GRADEDREVIEWS: RaterPreset = {
  name: "gradedreviews",
  label: "GradedReviews §5.2 grading against the reference",
  appliesTo: (q) => q.task === "REFERENCE_GRADING",
  text: `You are an experienced code reviewer, and you will grade a generated code review. Work out your answer as if you graded it ten times privately, and give the grade you arrived at most often. Follow the requested output format exactly; do not explain your answer.

Compare the generated code review with the reference code review and grade the generated one by these criteria:
${GRADEDREVIEWS_CRITERIA.map((c, i) => `${i + 1}. ${c}`).join("\n")}

Output only the grade: a single integer from 1 to 5, with no explanation.

Generated code review:
<generated_review>
{{item}}
</generated_review>

Reference code review:
<reference_review>
{{reference}}
</reference_review>`,
};

const CRSCORE_LAAJ: RaterPreset = {
  name: "crscore-laaj",
  label: "CRScore's LLM-as-a-judge (Appendix D.4)",
  appliesTo: (q) => q.task === "REVIEW_RATING" && q.options.length > 0,
  text: `You are a highly skilled software engineer with a lot of experience in reviewing code changes. You will be asked to rate reviews of code changes.

{{question}}
{{codebook}}

Now read the code change and the review below, and rate the review. Answer with a single integer, one of {{scale}}.

Code change:
<code_change>
{{diff}}
</code_change>

Review:
<review>
{{item}}
</review>

Your score:`,
};

const SWE_JUDGE_DIRECT: RaterPreset = {
  name: "swe-judge-direct",
  label: "SWE-Judge Direct Assess layout (§3.1), answered on the question's scale",
  appliesTo: () => true,
  text: `[Task Description]
You are an expert software engineer who reviews code changes and judges what others wrote about them. Your task is to answer one question about the text below.

[Evaluation Criteria]
{{question}}
{{codebook}}

[Evaluation Steps]
1. Read the code change carefully.
2. Read the text and check it against the code change (and the reference review, when one is given).
3. Choose one of the allowed answers: {{scale}}.

[Data]
Code change:
<code_change>
{{diff}}
</code_change>

Text to judge:
<text>
{{item}}
</text>

Reference review:
<reference_review>
{{reference}}
</reference_review>

${JSON_ANSWER}`,
};

const CCRAB_FILTER: RaterPreset = {
  name: "ccrab-filter",
  label: "c-CRAB-style filter of actionable, verifiable comments (§4.2.1)",
  appliesTo: (q) => (q.task === "COMMENT_FILTERING" || q.task === "COMMENT_QUESTIONS") && q.key === "high-quality",
  text: `You filter review comments for a benchmark of code review tools. Keep only comments that identify a specific, actionable issue in the patch that a test could objectively verify. Answer "no" for conversation, acknowledgements, praise, requests for clarification, questions about intent, and concerns no test could check.

The patch:
{{diff}}

The review comment:
{{item}}

Is this comment high quality (actionable and verifiable)? Allowed answers: {{scale}}.
${JSON_ANSWER}`,
};

export const RATER_PRESETS: readonly RaterPreset[] = [PRODUCT, GRADEDREVIEWS, CRSCORE_LAAJ, SWE_JUDGE_DIRECT, CCRAB_FILTER];

/** The presets that suit a question, the one made for it first (the product's plain prompt last but one, SWE-Judge's last). */
export function presetsFor(question: JudgeQuestion): RaterPreset[] {
  const suited = RATER_PRESETS.filter((p) => p.appliesTo(question));
  const special = suited.filter((p) => p !== PRODUCT && p !== SWE_JUDGE_DIRECT);
  return [...special, PRODUCT, SWE_JUDGE_DIRECT];
}

/** The prompt a run uses when given none: the preset made for the question, else the product's plain one. */
export const defaultPreset = (question: JudgeQuestion): RaterPreset => presetsFor(question)[0];
