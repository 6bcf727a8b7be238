/**
 * `jsonl` export: the import format (lib/import/jsonl-schema.ts) with every annotation, one
 * code change per line. Every line has every key, with null where a value is absent, and
 * metadata as a JSON string, so all lines share keys and types and Hugging Face `datasets`
 * loads the file; importing it into an empty study reproduces the study (round trip). Each
 * pseudo-reference and review carries its consensus per question (./consensus.ts), which the
 * import ignores. In a study with review comments (pull requests), every line also carries its
 * file's comments with their anchors, threads, comment answers and consensus
 * (`reviewComments`), which the import ignores too; other studies' lines keep their bytes.
 */

import type { CodeChangeLine } from "@/lib/import/jsonl-schema";
import { itemConsensus, type CodeChangeConsensus, type ExportConsensus } from "./consensus";
import { orderedScores } from "./scores";
import type { ExportedChange, ExportedPseudoReference, ExportedReview, ExportedReviewComment } from "./rows";

/** Every key but the review comments, which only a study with review comments writes. */
type Line = Required<Omit<CodeChangeLine, "reviewComments">> & Pick<CodeChangeLine, "reviewComments">;

/** The consensus of a change's items, and the keys each kind of item carries. */
interface JsonlConsensus {
  values: ExportConsensus;
  columns: ConsensusColumns;
}

type ConsensusColumns = Record<"pseudoReference" | "review" | "reviewComment", string[]>;

const orNull = (text: string) => (text === "" ? null : text);

/**
 * An annotation's bookkeeping keys, then its task's own keys, in one object: spreading the
 * bookkeeping into a new object per annotation took three times as long (written out with it).
 */
function annotationEntry<Own extends object>(annotation: { annotator: { id: string; name: string }; timeSpentMs: number | null; createdAt: string; updatedAt: string }, own: Own) {
  const bookkeeping = { annotator: annotation.annotator.name, annotatorId: annotation.annotator.id, timeSpentMs: annotation.timeSpentMs, createdAt: annotation.createdAt, updatedAt: annotation.updatedAt };
  return Object.assign(bookkeeping, own);
}

function pseudoReferenceLine(reference: ExportedPseudoReference, consensus: JsonlConsensus) {
  return {
    id: reference.externalId,
    text: reference.text,
    kind: reference.kind,
    source: reference.source,
    position: reference.position,
    addedBy: reference.addedBy?.name ?? null,
    addedById: reference.addedBy?.id ?? null,
    corrects: reference.corrects?.externalId ?? null,
    judgements: reference.judgements.map((j) => annotationEntry(j, { code: j.code, necessary: j.necessary, errorType: j.errorType, note: orNull(j.note) })),
    consensus: itemConsensus(consensus.values, consensus.columns.pseudoReference, reference.id),
  };
}

function reviewLine(review: ExportedReview, dimensions: readonly string[], consensus: JsonlConsensus) {
  return {
    id: review.externalId,
    system: review.system,
    text: review.text,
    isReference: review.isReference,
    position: review.position,
    ratings: review.ratings.map((r) =>
      annotationEntry(r, {
        scores: Object.fromEntries(orderedScores(r.scores, dimensions)),
        comment: orNull(r.comment),
        addresses: r.links.filter((l) => !l.partial).map((l) => l.pseudoReference.externalId).sort(),
        partiallyAddresses: r.links.filter((l) => l.partial).map((l) => l.pseudoReference.externalId).sort(),
      }),
    ),
    grades: review.referenceGrades.map((g) => annotationEntry(g, { grade: g.grade, comment: orNull(g.comment) })),
    commentFilters: review.commentFilteringLabels.map((f) => annotationEntry(f, { highQuality: f.highQuality, justification: orNull(f.justification) })),
    consensus: itemConsensus(consensus.values, consensus.columns.review, review.id),
  };
}

function reviewCommentLine(comment: ExportedReviewComment, consensus: JsonlConsensus) {
  return {
    id: comment.externalId,
    path: comment.path,
    side: comment.side,
    startLine: comment.startLine,
    line: comment.line,
    system: comment.system,
    body: comment.body,
    thread: comment.thread,
    answers: comment.commentAnswers.map((a) => annotationEntry(a, { answers: a.answers, notes: a.notes })),
    consensus: itemConsensus(consensus.values, consensus.columns.reviewComment, comment.id),
  };
}

/** One code change as a line of the import format (without the newline); with `withComments`, its review comments too. */
export function codeChangeLine(change: ExportedChange, dimensions: readonly string[], consensus: JsonlConsensus, withComments = false): string {
  const pr = change.pullRequest;
  const line: Line = {
    id: change.externalId,
    pullRequest: pr && { id: pr.externalId, repository: orNull(pr.repository), title: orNull(pr.title), description: orNull(pr.description), metadata: JSON.stringify(pr.metadata) },
    filePath: orNull(change.filePath),
    language: change.language,
    diff: change.diff,
    oldFile: orNull(change.oldFile),
    newFile: orNull(change.newFile),
    metadata: JSON.stringify(change.metadata),
    position: change.position,
    pseudoReferences: change.pseudoReferences.map((reference) => pseudoReferenceLine(reference, consensus)),
    reviews: change.reviews.map((review) => reviewLine(review, dimensions, consensus)),
    ...(withComments ? { reviewComments: change.reviewComments.map((comment) => reviewCommentLine(comment, consensus)) } : {}),
  };
  return JSON.stringify(line);
}

export async function* jsonlExport(changes: AsyncIterable<ExportedChange>, dimensions: readonly string[], consensus: CodeChangeConsensus, columns: ConsensusColumns, withComments: boolean): AsyncGenerator<string> {
  for await (const change of changes) yield `${codeChangeLine(change, dimensions, { values: consensus(change), columns }, withComments)}\n`;
}
