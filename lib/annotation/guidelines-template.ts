/**
 * The starting template a lead may insert into a study's guidelines on the settings page: the
 * codebook tables of CRScore Appendix D, Table 8 (coding the accuracy of pseudo-references, with
 * the paper's example claims, paraphrased) and Table 7 (rules of thumb for the Likert
 * dimensions), in Markdown. The code and score texts come from lib/annotation/codebook, so the
 * template says what the workspace's codebook panel says.
 */
import { CLAIM_CODE_INFO, LIKERT_RULES } from "@/lib/annotation/codebook";
import type { ClaimCode } from "@/lib/generated/prisma/enums";

/** CRScore Table 8's example pseudo-reference and explanation per code (paraphrased); -2 is the sheets' extra code. */
const TABLE_8_EXAMPLES: Record<ClaimCode, { example: string; why: string }> = {
  CORRECT: {
    example: "Existing calls to `push` must now pass the new `hash` parameter; older code may break.",
    why: "True: a value passed by position after `hash` would now land in `hash`.",
  },
  INCORRECT: {
    example: "The change modifies the parameters passed to the function `ScalarSpaceEncoder`.",
    why: "False: `ScalarSpaceEncoder` is a class, not a function.",
  },
  UNVERIFIABLE: {
    example: "The change may affect performance, since the order of the arguments no longer matters.",
    why: "The arguments were passed by keyword, so correctness holds, but nothing tells whether speed changes.",
  },
  AMBIGUOUS: {
    example: "The function will now only work with valid elements, preventing issues down the line.",
    why: "What counts as a “valid element” is unspecified, so there is nothing definite to check.",
  },
  INCOMPLETE: {
    example: "The change renames the variable and",
    why: "The generated text stops mid-sentence.",
  },
};

function table8(): string {
  const rows = CLAIM_CODE_INFO.map((c) => `| ${c.value} | ${c.label} | ${c.description} | ${TABLE_8_EXAMPLES[c.code].example} | ${TABLE_8_EXAMPLES[c.code].why} |`);
  return ["| Code | Name | Use it when | Example | Why |", "|---:|---|---|---|---|", ...rows].join("\n");
}

function table7(): string {
  const rows = Object.entries(LIKERT_RULES).flatMap(([dimension, rule]) => {
    const name = `${dimension[0].toUpperCase()}${dimension.slice(1)}`;
    const scores = Object.entries(rule.scores);
    return scores.length ? scores.map(([score, text], i) => `| ${i === 0 ? name : ""} | ${score} | ${text} |`) : [`| ${name} | | ${rule.summary} |`];
  });
  return ["| Dimension | Score | Rule of thumb |", "|---|---:|---|", ...rows].join("\n");
}

/** The CRScore codebook (Tables 8 and 7) as Markdown guidelines, to be edited by the lead. */
export function crscoreCodebookTemplate(): string {
  return `# Codebook

## Stage 1: accuracy of claims and implications (CRScore Table 8)

Code each generated claim or implication about the change. Look for evidence in the diff, in the
files before and after the change, or in documentation of the language or library.

${table8()}

## Stage 2: rating reviews (CRScore Table 7)

First tick the claims and issues each review addresses, then score each dimension. These rules of
thumb keep annotators calibrated.

${table7()}
`;
}
