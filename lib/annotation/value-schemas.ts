/**
 * The value of each annotation kind as the client edits it and the server stores and logs it
 * in AnnotationHistory: the zod schemas (one per kind, shared by the workspace and the route
 * handler) and the save request. The client always sends a whole value (never a patch), so a
 * conflict can show both values. What needs no schema is in ./values, which the workspace loads
 * first; it loads these when it checks a value before sending.
 */
import { z } from "zod";
import type { ClaimCode, ClaimErrorType } from "@/lib/generated/prisma/enums";
import { CLAIM_CODE_INFO, ERROR_TYPE_INFO } from "./codebook";
import { commentAnswersValue } from "./comment-questions";

const text = (max: number) => z.string().max(max, `at most ${max} characters`);

export const claimJudgementValue = z.object({
  code: z.enum(CLAIM_CODE_INFO.map((info) => info.code) as [ClaimCode, ...ClaimCode[]]).nullable(),
  /** false: the annotator marks the claim unnecessary for the change. */
  necessary: z.boolean().nullable(),
  errorType: z.enum(ERROR_TYPE_INFO.map((info) => info.type) as [ClaimErrorType, ...ClaimErrorType[]]).nullable(),
  note: text(5000),
});

/**
 * Necessity of one stage-2 pseudo-reference (claim or smell) for a review to mention, asked in
 * stage 2 over the consolidated set when the study keeps CRScore's stage order (§4.2); stored
 * on the annotator's ClaimJudgement of that pseudo-reference, as the phase-2 sheets' `necessary?`.
 */
export const necessityValue = z.object({ necessary: z.boolean().nullable() });

export const reviewLink = z.object({ pseudoReferenceId: z.string().min(1), partial: z.boolean() });

export const reviewRatingValue = z.object({
  /** Likert score per study dimension; a dimension not rated yet is absent. */
  scores: z.record(z.string().min(1), z.number().int()),
  links: z.array(reviewLink).max(500),
  comment: text(5000),
});

export const referenceGradeValue = z.object({ grade: z.number().int().min(1).max(5), comment: text(5000) });

export const commentFilteringLabelValue = z.object({ highQuality: z.boolean(), justification: text(5000) });

export const addedClaimValue = z.object({
  text: z.string().trim().min(1, "the claim is empty").max(2000),
  /** The claim this one corrects (replaces in stage 2), or null for a missing claim. */
  correctsId: z.string().min(1).nullable(),
  /** true removes the added claim. */
  deleted: z.boolean().optional(),
});

export type ClaimJudgementValue = z.infer<typeof claimJudgementValue>;
export type ReviewRatingValue = z.infer<typeof reviewRatingValue>;
export type ReferenceGradeValue = z.infer<typeof referenceGradeValue>;
export type CommentFilteringLabelValue = z.infer<typeof commentFilteringLabelValue>;
export type AddedClaimValue = z.infer<typeof addedClaimValue>;
export type NecessityValue = z.infer<typeof necessityValue>;

const base = {
  assignmentId: z.string().min(1),
  /** Version the edit was based on; 0 when the annotation did not exist yet. */
  baseVersion: z.number().int().min(0),
};

/** Body of POST /api/annotations. */
export const saveRequest = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("judgement"), ...base, targetId: z.string().min(1), value: claimJudgementValue }),
  z.object({ kind: z.literal("rating"), ...base, targetId: z.string().min(1), value: reviewRatingValue }),
  z.object({ kind: z.literal("necessity"), ...base, targetId: z.string().min(1), value: necessityValue }),
  z.object({ kind: z.literal("grade"), ...base, targetId: z.string().min(1), value: referenceGradeValue }),
  z.object({ kind: z.literal("label"), ...base, targetId: z.string().min(1), value: commentFilteringLabelValue }),
  /** targetId: the review comment; the value's questions are checked against the study's (lib/annotation/comment-questions). */
  z.object({ kind: z.literal("commentAnswers"), ...base, targetId: z.string().min(1), value: commentAnswersValue }),
  /**
   * targetId: the added claim's id, or a client key ("new:<uuid>") when creating it, so that a
   * retried creation (response lost) finds the claim it already made instead of adding another.
   */
  z.object({ kind: z.literal("addedClaim"), ...base, targetId: z.string().min(1).max(200), value: addedClaimValue }),
]);

export type SaveRequest = z.infer<typeof saveRequest>;

/** What one save writes: a judgement, an added claim, a necessity, a rating, a grade or a label (docs/glossary.md, "annotation"). */
export type SaveKind = SaveRequest["kind"];
export type AnnotationValue = SaveRequest["value"];

/** The value schema of each save kind: the request's (the workspace checks a value with it before sending). */
export const VALUE_SCHEMAS = Object.fromEntries(saveRequest.options.map((o): [string, z.ZodType] => [o.shape.kind.value, o.shape.value])) as Readonly<Record<SaveKind, z.ZodType>>;
