/**
 * The product's own JSONL format: one code change per line with its diff, pseudo-references
 * (CRScore §3.1), candidate reviews and the annotations of named annotators. This zod schema
 * is the definition; `public/schemas/code-change.schema.json` is generated from it
 * (`codeChangeJsonSchema()`, checked by a unit test) and docs/jsonl-format.md explains it.
 *
 * Every key may be written on every line; the export does so, with null for "not stated",
 * so that all lines have the same keys and types (Hugging Face `datasets` needs that).
 */
import { z } from "zod";
import { ClaimCode, ClaimErrorType, PseudoReferenceKind } from "@/lib/generated/prisma/enums";
import { MAX_TEXT_CHARS } from "./text";
import { MATCH_DEGREES } from "@/lib/annotation/comment-questions";

const id = z.string().min(1).max(500).describe("External id, unique among its siblings; the natural key of re-imports");
const text = z.string().max(MAX_TEXT_CHARS);
const optionalText = text.nullable().optional();
const name = z.string().trim().min(1).max(200);
const timestamp = z.iso.datetime({ offset: true }).nullable().optional().describe("ISO 8601 date-time");

/** Free-form metadata: a JSON object, or a string holding one (the export writes strings). */
const metadata = z
  .union([
    z.record(z.string(), z.json()),
    z.string().describe("A JSON object serialized as a string"),
  ])
  .nullable()
  .optional()
  .describe("Free-form metadata: an object, or a string holding a JSON object");

const annotation = {
  annotator: name.describe("Annotator's name; an account that cannot sign in is created for new names"),
  annotatorId: z.string().min(1).nullable().optional().describe("Account id in this product (set by its export); used when such an account exists"),
  timeSpentMs: z.int32().min(0).nullable().optional(),
  createdAt: timestamp,
  updatedAt: timestamp,
};

/** Written by the export, not imported: adjudication stays with the study it was decided in. */
const consensus = z
  .record(z.string(), z.union([z.string(), z.record(z.string(), z.string())]).nullable())
  .nullable()
  .optional()
  .describe("Consensus per question (the lead's adjudicated value, else the annotators' unanimous one; null when neither), coded as the long export's consensus column. Written by the export; the import ignores it");

export const claimJudgementSchema = z.strictObject({
  ...annotation,
  code: z.enum(ClaimCode).nullable().optional().describe("CRScore claim code: CORRECT 1, INCORRECT 0, UNVERIFIABLE -1, INCOMPLETE -2, AMBIGUOUS 2"),
  necessary: z.boolean().nullable().optional().describe("False when the annotator flags the pseudo-reference as unnecessary"),
  errorType: z.enum(ClaimErrorType).nullable().optional().describe("CRScore Table 12 error type"),
  note: optionalText,
});

export const reviewRatingSchema = z.strictObject({
  ...annotation,
  scores: z.record(z.string().min(1), z.int()).describe("Likert dimension -> score, e.g. {\"conciseness\": 4}"),
  comment: optionalText,
  addresses: z.array(id).optional().describe("Ids of pseudo-references of this code change the review addresses"),
  partiallyAddresses: z.array(id).optional().describe("Ids of pseudo-references the review addresses partially"),
});

export const referenceGradeSchema = z.strictObject({
  ...annotation,
  grade: z.int().min(1).max(5).describe("GradedReviews grade against the reference review: 5 identical … 1 unrelated"),
  comment: optionalText,
});

export const commentFilterSchema = z.strictObject({
  ...annotation,
  highQuality: z.boolean().describe("c-CRAB: the comment is actionable and objectively verifiable"),
  justification: optionalText,
});

export const pseudoReferenceSchema = z.strictObject({
  id,
  text: text.min(1),
  kind: z.enum(PseudoReferenceKind),
  source: z.string().max(200).nullable().optional().describe("Model or tool name, or the annotator for ANNOTATOR_ADDED"),
  position: z.int32().nullable().optional().describe("Order within the code change; defaults to the array order"),
  addedBy: name.nullable().optional().describe("Annotator who added it (kind ANNOTATOR_ADDED)"),
  addedById: z.string().min(1).nullable().optional(),
  corrects: id.nullable().optional().describe("Id of the pseudo-reference of this code change that this one corrects"),
  judgements: z.array(claimJudgementSchema).optional(),
  consensus,
});

export const reviewSchema = z.strictObject({
  id,
  system: z.string().min(1).max(200).describe("Generating system; the human reference has isReference true"),
  text,
  isReference: z.boolean().optional(),
  position: z.int32().nullable().optional(),
  ratings: z.array(reviewRatingSchema).optional(),
  grades: z.array(referenceGradeSchema).optional(),
  commentFilters: z.array(commentFilterSchema).optional(),
  consensus,
});

/** Written by the export, not imported: a pull request's comments come in with `import-pr` or the pull-request bundle (docs/pull-request-formats.md). */
export const reviewCommentLineSchema = z
  .strictObject({
    id,
    path: z.string().max(1000).describe("The file the comment is on"),
    side: z.enum(["LEFT", "RIGHT"]).nullable().describe("GitHub's side: LEFT the old file, RIGHT the new one; null on a whole-file comment naming none"),
    startLine: z.int32().nullable().describe("First line of a range; null on a one-line or whole-file comment"),
    line: z.int32().nullable().describe("Last (or only) line; null on a whole-file comment"),
    system: name.describe("Who wrote it: a reviewer or a tool and model"),
    body: text.describe("Markdown"),
    thread: id.describe("Id of the comment its thread starts with (its own when it answers none), as GitHub's in_reply_to_id threads them"),
    answers: z
      .array(z.strictObject({ ...annotation, answers: z.record(z.string(), z.union([z.boolean(), z.string(), z.number(), z.record(z.string(), z.enum(MATCH_DEGREES)).describe("The matching question: a degree per human comment, by its id")])), notes: z.record(z.string(), z.string()) }))
      .describe("Each annotator's answers to the study's comment questions, with their justifications"),
    consensus,
  })
  .describe("A review comment of the pull request on this file, with its anchor, thread and comment answers");

export const pullRequestSchema = z.strictObject({
  id,
  repository: z.string().max(500).nullable().optional(),
  title: optionalText,
  description: optionalText,
  metadata,
});

export const codeChangeLineSchema = z
  .strictObject({
    id,
    pullRequest: pullRequestSchema.nullable().optional().describe("Groups several code changes (files) into one pull request"),
    filePath: z.string().max(1000).nullable().optional(),
    language: z.string().min(1).max(50),
    diff: text.describe("Unified diff of the change"),
    oldFile: optionalText,
    newFile: optionalText,
    metadata,
    position: z.int32().nullable().optional().describe("Order within the study; defaults to the line order"),
    pseudoReferences: z.array(pseudoReferenceSchema).optional(),
    reviews: z.array(reviewSchema).optional(),
    reviewComments: z.array(reviewCommentLineSchema).optional().describe("Written by the export of a study with review comments, not imported"),
  })
  .describe("One code change of a crjudge study, with its pseudo-references, candidate reviews and annotations");

export type CodeChangeLine = z.input<typeof codeChangeLineSchema>;
export type ParsedCodeChangeLine = z.output<typeof codeChangeLineSchema>;

/** The JSON Schema of one line, as committed in public/schemas/code-change.schema.json. */
export function codeChangeJsonSchema(): Record<string, unknown> {
  return {
    $id: "https://crjudge.invalid/schemas/code-change.schema.json",
    title: "crjudge JSONL line: one code change",
    ...z.toJSONSchema(codeChangeLineSchema, { io: "input", target: "draft-2020-12" }),
  };
}
