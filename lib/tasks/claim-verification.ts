/**
 * Claim verification, CRScore stage 1 (§4.2, codebook Table 8): an accuracy code per claim,
 * an error type, a note, and whether the claim is necessary unless the study keeps the stage
 * order (then necessity is asked in stage 2, see ./review-rating); annotators may add missing
 * claims or correct ones (pseudo-references of kind ANNOTATOR_ADDED).
 */
import type { ClaimCode, ClaimErrorType } from "@/lib/generated/prisma/client";
import { emptyClaimJudgement, type ClaimJudgementValue } from "@/lib/annotation/values";
import { addedClaimValue, claimJudgementValue } from "@/lib/annotation/value-schemas";
import { numberOfClaimCode } from "@/lib/import/claim-codes";
import { CLAIM_CODE_SCALE } from "@/lib/analysis/questions";
import { missingEntry } from "@/lib/annotation/completeness";
import { flag, nonEmpty } from "./reviews";
import { CLAIM_CODE_INFO, ERROR_TYPE_INFO } from "@/lib/annotation/codebook";
import { storedEntry, yesNo, type TaskDescriptor } from "./types";

/** A judge's claim judgement so far (current: the value stored before, or null). */
const judgement = (current: unknown): ClaimJudgementValue => ({ ...emptyClaimJudgement(), ...(current as Partial<ClaimJudgementValue> | null) });

export const claimVerification: TaskDescriptor = {
  task: "CLAIM_VERIFICATION",
  name: "claim verification",
  label: "Claim verification",
  annotationName: "claim judgement",
  values: {
    judgement: {
      schema: claimJudgementValue,
      history: "CLAIM_JUDGEMENT",
      row: {
        fields: [
          { name: "code", type: `"ClaimCode"` },
          { name: "necessary", type: "boolean" },
          { name: "errorType", type: `"ClaimErrorType"` },
          { name: "note", type: "text" },
        ],
        itemCondition: `t."kind" IN ('CLAIM', 'IMPLICATION')`,
        notFound: "No such claim in this item.",
      },
    },
    addedClaim: { schema: addedClaimValue, history: "PSEUDO_REFERENCE" },
  },
  timeKey: "judgement",
  itemKind: "pseudoReference",
  storage: { model: "claimJudgement", table: "ClaimJudgement", item: { column: "pseudoReferenceId", field: "pseudoReferenceId", relation: "pseudoReference" } },
  appliesTo: (item) => item.generatedClaims > 0,
  questions: () => [{ task: "CLAIM_VERIFICATION", key: "code", label: "Claim accuracy code", level: "nominal", scale: CLAIM_CODE_SCALE, weights: "unweighted" }],
  judgeQuestions: () => [
    {
      task: "CLAIM_VERIFICATION",
      key: "code",
      text: "Is the claim about the code change accurate? (CRScore Table 8)",
      kind: "judgement",
      options: CLAIM_CODE_INFO.map((c) => ({ answer: c.code.toLowerCase(), label: c.label, description: c.description })),
      apply: (current, answer, reason) => ({ ...judgement(current), code: String(answer).toUpperCase(), note: reason }),
    },
    {
      task: "CLAIM_VERIFICATION",
      key: "error-type",
      text: "If the claim is incorrect, what kind of error does it make? (CRScore Table 12)",
      kind: "judgement",
      options: ERROR_TYPE_INFO.map((t) => ({ answer: t.type.toLowerCase().replace(/_/g, "-"), label: t.label, description: t.description })),
      apply: (current, answer) => ({ ...judgement(current), errorType: String(answer).toUpperCase().replace(/-/g, "_") }),
    },
    {
      task: "CLAIM_VERIFICATION",
      key: "necessary",
      text: "Is the claim necessary: should a review of this change mention it?",
      kind: "judgement",
      options: yesNo("A good review should address it.", "It is not worth a reviewer's mention."),
      apply: (current, answer) => ({ ...judgement(current), necessary: answer === "yes" }),
    },
  ],
  answer: () => ({ text: "a.code::text" }),
  // A claim is done when coded, or (where stage 1 asks necessity) marked unnecessary.
  stored: (workspace) => [
    ...(workspace.claimVerification?.references ?? []).map((r) => storedEntry("judgement", r.id, workspace.claimVerification!.judgements[r.id])),
    ...(workspace.claimVerification?.added ?? []).map((a) => storedEntry("addedClaim", a.id, a)),
  ],
  missing: (workspace, answer) =>
    (workspace.claimVerification?.references ?? []).flatMap((ref, i) => {
      const v = answer("judgement", ref.id) as Partial<ClaimJudgementValue> | null;
      const done = v?.code != null || (workspace.claimVerification!.askNecessity && v?.necessary === false);
      return missingEntry("judgement", ref.id, `Claim ${i + 1}`, done ? [] : ["code"]);
    }),

  codebook: () => [
    { title: "Claim codes (CRScore Table 8)", entries: CLAIM_CODE_INFO.map((c) => ({ key: String(c.value), label: c.label, description: c.description })) },
    { title: "Error types (CRScore Table 12)", entries: ERROR_TYPE_INFO.map((t) => ({ key: `e${t.key}`, label: t.label, description: t.description })) },
  ],
  shortcuts: [
    { keys: ["1"], description: "Correct (a code moves on to the next claim; after the last one, codes do nothing until you go back)" },
    { keys: ["0"], description: "Incorrect" },
    { keys: ["-", "1"], sequence: true, description: "Unverifiable (-1)" },
    { keys: ["2"], description: "Ambiguous" },
    { keys: ["-", "2"], sequence: true, description: "Incomplete (-2)" },
    {
      keys: ["e", "1…5"],
      sequence: true,
      description: "Error type (1 comprehension, 2 over-generalization, 3 reasoning, 4 knowledge, 5 localization; e 0 clears) of the claim just coded (0 e 3: incorrect, reasoning), otherwise of the marked claim",
    },
    { keys: ["u"], description: "Mark the claim unnecessary (when stage 1 asks it)" },
    { keys: ["y"], description: "Mark the claim necessary again" },
    { keys: ["r"], description: "Write a corrected version of the claim (saved as you type)" },
    { keys: ["a"], description: "Add a missing claim (saved as you type; Enter or Esc finishes it)" },
  ],

  export: {
    of: "pseudoReference",
    annotations: {
      field: "judgements",
      columns: ["t.code", "t.necessary", `t."errorType"`, "t.note"],
      row: (r) => ({ code: r[0] as ClaimCode | null, necessary: r[1] as boolean | null, errorType: r[2] as ClaimErrorType | null, note: r[3] as string }),
    },
    values: (reference) =>
      reference.judgements.map((j) => ({
        annotation: j,
        values: [
          // claim codes as the CRScore sheets write them: 1, 0, -1, -2, 2
          ["code", j.code === null ? null : String(numberOfClaimCode(j.code))],
          ["necessary", j.necessary === null ? null : flag(j.necessary)],
          ["errorType", j.errorType],
          ["note", nonEmpty(j.note)],
        ],
      })),
    ratings: (reference) => reference.judgements.map((j) => ({ annotatorId: j.annotator.id, value: j.code })),
  },

  consensusColumn: (_question, value) => ["code", String(numberOfClaimCode(value as ClaimCode))],
};
