/**
 * Annotators' reads and writes in the workspace. Every query is scoped by the annotator's own
 * id in its where-clause (assignment `{ id, userId }` in a study the annotator is a member of,
 * annotation `{ annotatorId, ... }`), so a forged assignment, claim or review id finds nothing
 * and writes nothing (404).
 *
 * Writes use optimistic concurrency (lib/annotation/versioning): a save names the version it
 * was based on; an accepted change bumps the version and appends an AnnotationHistory row with
 * the old and new value in the same transaction; a stale save is refused (ConflictError, 409)
 * and leaves a CONFLICT history row holding the refused value next to the stored one.
 */
import type { SessionUser } from "@/lib/auth/authenticate";
import { HttpError } from "@/lib/auth/session";
import { db, Prisma } from "@/lib/db/client";
import { memberStudyWhere } from "@/lib/data/study-access";
import type { AnnotationKind, AssignmentStatus, ClaimCode, ClaimErrorType, TaskType } from "@/lib/generated/prisma/client";
import { hashSeed, letterLabel, seededShuffle } from "@/lib/annotation/random";
import { stage2FromConsolidation, stage2FromOwnJudgements, type ReferenceInput, type Stage2Reference } from "@/lib/annotation/stage2";
import { decideSave, type Stored } from "@/lib/annotation/versioning";
import {
  MAX_TIME_REPORT_MS,
  NEW_CLAIM_PREFIX,
  type AddedClaimValue,
  type ClaimJudgementValue,
  type CommentFilterValue,
  type ReferenceGradeValue,
  type ReviewRatingValue,
  type SaveRequest,
} from "@/lib/annotation/values";
import type { DiffSource } from "@/components/diff-view/model";

type Tx = Prisma.TransactionClient;

export class ConflictError extends HttpError {
  constructor(
    readonly current: { id: string | null; version: number; value: unknown } | null,
    readonly attempted: { baseVersion: number; value: unknown },
    reason: string,
  ) {
    super(409, `Not saved: this annotation was changed elsewhere (${reason}). Both values are shown; choose which to keep.`);
  }
}

export interface Versioned<V> {
  id: string;
  version: number;
  value: V;
}

const TASK_OF_KIND: Record<SaveRequest["kind"], TaskType> = {
  claim: "CLAIM_VERIFICATION",
  added: "CLAIM_VERIFICATION",
  rating: "REVIEW_RATING",
  grade: "REFERENCE_GRADING",
  filter: "COMMENT_FILTERING",
};

const HISTORY_KIND: Record<SaveRequest["kind"], AnnotationKind> = {
  claim: "CLAIM_JUDGEMENT",
  added: "PSEUDO_REFERENCE",
  rating: "REVIEW_RATING",
  grade: "REFERENCE_GRADE",
  filter: "COMMENT_FILTER",
};

// ---------------------------------------------------------------------------------------------
// Reading the workspace

export interface WorkspaceReview {
  id: string;
  /** "Review A", ... in the annotator's own shuffled order. */
  label: string;
  text: string;
  /** Present only when the study shows system names. */
  system?: string;
  isReference?: boolean;
}

export interface WorkspaceData {
  assignment: { id: string; taskType: TaskType; status: AssignmentStatus; skipReason: string | null; timeSpentMs: number; position: number; inReliabilitySet: boolean };
  study: { slug: string; name: string; guidelines: string; likertDimensions: string[]; likertMin: number; likertMax: number; hideSystemNames: boolean };
  item: { id: string; externalId: string; language: string; filePath: string; pullRequest: { externalId: string; title: string; repository: string; description: string } | null; consolidated: boolean };
  sources: DiffSource[];
  queue: { index: number; total: number; done: number; previousId: string | null; nextId: string | null; nextOpenId: string | null };
  /** Stage 2 before the annotator's own stage 1 of the item is finished. */
  blockedBy: { assignmentId: string; message: string } | null;
  claims?: {
    references: { id: string; kind: "CLAIM" | "IMPLICATION"; text: string; source: string }[];
    smells: { id: string; text: string; source: string }[];
    judgements: Record<string, Versioned<ClaimJudgementValue>>;
    added: Versioned<AddedClaimValue>[];
  };
  rating?: { stage2Source: "consolidated" | "own"; references: Stage2Reference[]; reviews: WorkspaceReview[]; ratings: Record<string, Versioned<ReviewRatingValue>> };
  grading?: { reference: { id: string; text: string } | null; reviews: WorkspaceReview[]; grades: Record<string, Versioned<ReferenceGradeValue>> };
  filtering?: { reviews: WorkspaceReview[]; labels: Record<string, Versioned<CommentFilterValue>> };
}

async function findOwnAssignment(client: Tx | typeof db, userId: string, assignmentId: string) {
  const assignment = await client.assignment.findFirst({
    where: { id: assignmentId, userId, study: memberStudyWhere(userId) },
    select: { id: true, userId: true, studyId: true, codeChangeId: true, taskType: true, status: true, skipReason: true, timeSpentMs: true, position: true, inReliabilitySet: true },
  });
  if (!assignment) throw new HttpError(404, "No such assignment in your queue.");
  return assignment;
}

const referenceSelect = { id: true, kind: true, text: true, source: true, position: true, addedById: true, correctsId: true, version: true } as const;

/** The pseudo-references of stage 2 for one annotator and item (consolidated, or their own stage 1). */
export async function stage2ReferencesFor(client: Tx | typeof db, userId: string, codeChangeId: string): Promise<{ source: "consolidated" | "own"; references: Stage2Reference[] }> {
  const change = await client.codeChange.findUniqueOrThrow({ where: { id: codeChangeId }, select: { consolidatedAt: true } });
  const references: ReferenceInput[] = await client.pseudoReference.findMany({ where: { codeChangeId }, select: referenceSelect });
  if (change.consolidatedAt) {
    const decisions = await client.consolidationDecision.findMany({ where: { codeChangeId }, select: { pseudoReferenceId: true, action: true, replacementText: true } });
    return { source: "consolidated", references: stage2FromConsolidation(references, new Map(decisions.map((d) => [d.pseudoReferenceId, d]))) };
  }
  const judgements = await client.claimJudgement.findMany({ where: { annotatorId: userId, pseudoReference: { codeChangeId } }, select: { pseudoReferenceId: true, code: true, necessary: true } });
  return { source: "own", references: stage2FromOwnJudgements(references, new Map(judgements.map((j) => [j.pseudoReferenceId, j])), userId) };
}

function anonymise(reviews: { id: string; text: string; system: string; isReference: boolean }[], seed: number, hideSystemNames: boolean): WorkspaceReview[] {
  const sorted = reviews.slice().sort((a, b) => (a.id < b.id ? -1 : 1));
  return seededShuffle(sorted, seed).map((review, index) => ({
    id: review.id,
    label: `Review ${letterLabel(index)}`,
    text: review.text,
    ...(hideSystemNames ? {} : { system: review.system, isReference: review.isReference }),
  }));
}

const claimValue = (j: { code: ClaimCode | null; necessary: boolean | null; errorType: ClaimErrorType | null; note: string }): ClaimJudgementValue => ({
  code: j.code,
  necessary: j.necessary,
  errorType: j.errorType,
  note: j.note,
});

const ratingValue = (r: { scores: Prisma.JsonValue; comment: string; links: { pseudoReferenceId: string; partial: boolean }[] }): ReviewRatingValue => ({
  scores: (r.scores && typeof r.scores === "object" && !Array.isArray(r.scores) ? r.scores : {}) as Record<string, number>,
  links: r.links.map((l) => ({ pseudoReferenceId: l.pseudoReferenceId, partial: l.partial })).sort((a, b) => (a.pseudoReferenceId < b.pseudoReferenceId ? -1 : 1)),
  comment: r.comment,
});

/** Everything the workspace page shows for one of the annotator's own assignments. */
export async function getWorkspace(userId: string, assignmentId: string): Promise<WorkspaceData> {
  const assignment = await findOwnAssignment(db, userId, assignmentId);
  const [study, change, queue] = await Promise.all([
    db.study.findUniqueOrThrow({
      where: { id: assignment.studyId },
      select: { slug: true, name: true, guidelines: true, likertDimensions: true, likertMin: true, likertMax: true, hideSystemNames: true, assignmentSeed: true },
    }),
    db.codeChange.findUniqueOrThrow({
      where: { id: assignment.codeChangeId },
      select: {
        id: true,
        externalId: true,
        language: true,
        filePath: true,
        diff: true,
        oldFile: true,
        newFile: true,
        consolidatedAt: true,
        pullRequest: {
          select: {
            externalId: true,
            title: true,
            repository: true,
            description: true,
            codeChanges: { orderBy: { position: "asc" }, select: { id: true, filePath: true, language: true, diff: true, oldFile: true, newFile: true } },
          },
        },
      },
    }),
    db.assignment.findMany({ where: { userId, studyId: assignment.studyId }, orderBy: { position: "asc" }, select: { id: true, status: true, taskType: true, codeChangeId: true } }),
  ]);

  const index = queue.findIndex((a) => a.id === assignment.id);
  const open = (a: { status: AssignmentStatus }) => a.status === "PENDING" || a.status === "IN_PROGRESS";
  const nextOpen = queue.slice(index + 1).find(open) ?? queue.slice(0, index).find(open) ?? null;
  const own: DiffSource = { key: change.id, path: change.filePath, language: change.language, diff: change.diff, oldFile: change.oldFile, newFile: change.newFile, primary: true };
  const siblings: DiffSource[] = (change.pullRequest?.codeChanges ?? [])
    .filter((c) => c.id !== change.id)
    .map((c) => ({ key: c.id, path: c.filePath, language: c.language, diff: c.diff, oldFile: c.oldFile, newFile: c.newFile }));

  let blockedBy: WorkspaceData["blockedBy"] = null;
  if (assignment.taskType === "REVIEW_RATING" && !change.consolidatedAt) {
    const stage1 = queue.find((a) => a.codeChangeId === change.id && a.taskType === "CLAIM_VERIFICATION");
    if (stage1 && stage1.status !== "DONE" && stage1.status !== "SKIPPED") blockedBy = { assignmentId: stage1.id, message: "Finish claim verification (stage 1) of this item first: review rating uses its result." };
  }

  const data: WorkspaceData = {
    assignment: {
      id: assignment.id,
      taskType: assignment.taskType,
      status: assignment.status,
      skipReason: assignment.skipReason,
      timeSpentMs: assignment.timeSpentMs,
      position: assignment.position,
      inReliabilitySet: assignment.inReliabilitySet,
    },
    study: { slug: study.slug, name: study.name, guidelines: study.guidelines, likertDimensions: study.likertDimensions, likertMin: study.likertMin, likertMax: study.likertMax, hideSystemNames: study.hideSystemNames },
    item: {
      id: change.id,
      externalId: change.externalId,
      language: change.language,
      filePath: change.filePath,
      pullRequest: change.pullRequest ? { externalId: change.pullRequest.externalId, title: change.pullRequest.title, repository: change.pullRequest.repository, description: change.pullRequest.description } : null,
      consolidated: change.consolidatedAt !== null,
    },
    sources: [own, ...siblings],
    queue: {
      index,
      total: queue.length,
      done: queue.filter((a) => a.status === "DONE").length,
      previousId: queue[index - 1]?.id ?? null,
      nextId: queue[index + 1]?.id ?? null,
      nextOpenId: nextOpen?.id ?? null,
    },
    blockedBy,
  };

  const reviewSeed = hashSeed(study.assignmentSeed, userId, change.id, "reviews");
  const reviews = () => db.candidateReview.findMany({ where: { codeChangeId: change.id }, select: { id: true, text: true, system: true, isReference: true } });

  switch (assignment.taskType) {
    case "CLAIM_VERIFICATION": {
      const [references, judgements] = await Promise.all([
        db.pseudoReference.findMany({ where: { codeChangeId: change.id, OR: [{ kind: { not: "ANNOTATOR_ADDED" } }, { addedById: userId }] }, orderBy: [{ position: "asc" }, { id: "asc" }], select: referenceSelect }),
        db.claimJudgement.findMany({ where: { annotatorId: userId, pseudoReference: { codeChangeId: change.id } } }),
      ]);
      data.claims = {
        references: references.filter((r) => r.kind === "CLAIM" || r.kind === "IMPLICATION").map((r) => ({ id: r.id, kind: r.kind as "CLAIM" | "IMPLICATION", text: r.text, source: r.source })),
        smells: references.filter((r) => r.kind === "SMELL").map((r) => ({ id: r.id, text: r.text, source: r.source })),
        judgements: Object.fromEntries(judgements.map((j) => [j.pseudoReferenceId, { id: j.id, version: j.version, value: claimValue(j) }])),
        added: references.filter((r) => r.kind === "ANNOTATOR_ADDED").map((r) => ({ id: r.id, version: r.version, value: { text: r.text, correctsId: r.correctsId } })),
      };
      break;
    }
    case "REVIEW_RATING": {
      const [stage2, all, ratings] = await Promise.all([
        stage2ReferencesFor(db, userId, change.id),
        reviews(),
        db.reviewRating.findMany({ where: { annotatorId: userId, candidateReview: { codeChangeId: change.id } }, include: { links: true } }),
      ]);
      data.rating = {
        stage2Source: stage2.source,
        references: stage2.references,
        reviews: anonymise(all, reviewSeed, study.hideSystemNames),
        ratings: Object.fromEntries(ratings.map((r) => [r.candidateReviewId, { id: r.id, version: r.version, value: ratingValue(r) }])),
      };
      break;
    }
    case "REFERENCE_GRADING": {
      const [all, grades] = await Promise.all([reviews(), db.referenceGrade.findMany({ where: { annotatorId: userId, candidateReview: { codeChangeId: change.id } } })]);
      const reference = all.find((r) => r.isReference) ?? null;
      data.grading = {
        reference: reference && { id: reference.id, text: reference.text },
        reviews: anonymise(
          all.filter((r) => !r.isReference),
          reviewSeed,
          study.hideSystemNames,
        ),
        grades: Object.fromEntries(grades.map((g) => [g.candidateReviewId, { id: g.id, version: g.version, value: { grade: g.grade, comment: g.comment } }])),
      };
      break;
    }
    case "COMMENT_FILTERING": {
      const [all, labels] = await Promise.all([reviews(), db.commentFilterLabel.findMany({ where: { annotatorId: userId, candidateReview: { codeChangeId: change.id } } })]);
      data.filtering = {
        reviews: anonymise(all, reviewSeed, study.hideSystemNames),
        labels: Object.fromEntries(labels.map((l) => [l.candidateReviewId, { id: l.id, version: l.version, value: { highQuality: l.highQuality, justification: l.justification } }])),
      };
      break;
    }
  }
  return data;
}

// ---------------------------------------------------------------------------------------------
// Saving annotations

type OwnAssignment = Awaited<ReturnType<typeof findOwnAssignment>>;

interface Target<V> {
  /** The stored annotation, or null when there is none yet. */
  current: (Stored<V> & { id: string }) | null;
  create(value: V): Promise<string>;
  /** Writes the value if the stored version is still `baseVersion`; false when it is not. */
  update(id: string, baseVersion: number, value: V): Promise<boolean>;
  remove?(id: string, baseVersion: number): Promise<boolean>;
}

export interface SaveResult {
  /** The annotation's id (for an added claim: the new pseudo-reference's id). */
  id: string | null;
  version: number;
  value: unknown;
  /** false when the value was already stored (a retried save) and nothing was written. */
  changed: boolean;
}

/**
 * Thrown inside the transaction to roll it back. With `current`, the save is stale and is
 * reported as a conflict; without, a concurrent save won a race and the save is tried again.
 */
class StaleSave extends Error {
  constructor(
    readonly reason: string,
    readonly current: { id: string; version: number; value: unknown } | null | undefined,
  ) {
    super(reason);
  }
}

async function resolveTarget(tx: Tx, user: SessionUser, assignment: OwnAssignment, request: SaveRequest): Promise<Target<unknown>> {
  const annotatorId = user.id;
  const codeChangeId = assignment.codeChangeId;
  switch (request.kind) {
    case "claim": {
      const ref = await tx.pseudoReference.findFirst({ where: { id: request.targetId, codeChangeId, kind: { in: ["CLAIM", "IMPLICATION"] } }, select: { id: true } });
      if (!ref) throw new HttpError(404, "No such claim in this item.");
      const row = await tx.claimJudgement.findUnique({ where: { annotatorId_pseudoReferenceId: { annotatorId, pseudoReferenceId: ref.id } } });
      return {
        current: row && { id: row.id, version: row.version, value: claimValue(row) },
        create: async (value) => (await tx.claimJudgement.create({ data: { annotatorId, pseudoReferenceId: ref.id, ...(value as ClaimJudgementValue) } })).id,
        update: async (id, base, value) => (await tx.claimJudgement.updateMany({ where: { id, annotatorId, version: base }, data: { ...(value as ClaimJudgementValue), version: { increment: 1 } } })).count === 1,
      };
    }
    case "rating": {
      const review = await tx.candidateReview.findFirst({ where: { id: request.targetId, codeChangeId }, select: { id: true } });
      if (!review) throw new HttpError(404, "No such review in this item.");
      const study = await tx.study.findUniqueOrThrow({ where: { id: assignment.studyId }, select: { likertDimensions: true, likertMin: true, likertMax: true } });
      for (const [dimension, score] of Object.entries(request.value.scores)) {
        if (!study.likertDimensions.includes(dimension)) throw new HttpError(400, `"${dimension}" is not a dimension of this study.`);
        if (score < study.likertMin || score > study.likertMax) throw new HttpError(400, `${dimension} must be between ${study.likertMin} and ${study.likertMax}.`);
      }
      const allowed = new Set((await stage2ReferencesFor(tx, annotatorId, codeChangeId)).references.map((r) => r.id));
      const stale = request.value.links.filter((l) => !allowed.has(l.pseudoReferenceId));
      if (stale.length > 0) throw new HttpError(400, `Pseudo-reference ${stale[0].pseudoReferenceId} is not in this item's stage-2 set.`);
      const row = await tx.reviewRating.findUnique({ where: { annotatorId_candidateReviewId: { annotatorId, candidateReviewId: review.id } }, include: { links: true } });
      const writeLinks = async (ratingId: string, value: ReviewRatingValue) => {
        await tx.reviewClaimLink.deleteMany({ where: { ratingId } });
        if (value.links.length > 0) await tx.reviewClaimLink.createMany({ data: value.links.map((l) => ({ ratingId, pseudoReferenceId: l.pseudoReferenceId, partial: l.partial })) });
      };
      return {
        current: row && { id: row.id, version: row.version, value: ratingValue(row) },
        create: async (v) => {
          const value = v as ReviewRatingValue;
          const created = await tx.reviewRating.create({ data: { annotatorId, candidateReviewId: review.id, scores: value.scores, comment: value.comment } });
          await writeLinks(created.id, value);
          return created.id;
        },
        update: async (id, base, v) => {
          const value = v as ReviewRatingValue;
          const { count } = await tx.reviewRating.updateMany({ where: { id, annotatorId, version: base }, data: { scores: value.scores, comment: value.comment, version: { increment: 1 } } });
          if (count !== 1) return false;
          await writeLinks(id, value);
          return true;
        },
      };
    }
    case "grade": {
      const review = await tx.candidateReview.findFirst({ where: { id: request.targetId, codeChangeId, isReference: false }, select: { id: true } });
      if (!review) throw new HttpError(404, "No such generated review in this item.");
      const row = await tx.referenceGrade.findUnique({ where: { annotatorId_candidateReviewId: { annotatorId, candidateReviewId: review.id } } });
      return {
        current: row && { id: row.id, version: row.version, value: { grade: row.grade, comment: row.comment } },
        create: async (value) => (await tx.referenceGrade.create({ data: { annotatorId, candidateReviewId: review.id, ...(value as ReferenceGradeValue) } })).id,
        update: async (id, base, value) => (await tx.referenceGrade.updateMany({ where: { id, annotatorId, version: base }, data: { ...(value as ReferenceGradeValue), version: { increment: 1 } } })).count === 1,
      };
    }
    case "filter": {
      const review = await tx.candidateReview.findFirst({ where: { id: request.targetId, codeChangeId }, select: { id: true } });
      if (!review) throw new HttpError(404, "No such review in this item.");
      const row = await tx.commentFilterLabel.findUnique({ where: { annotatorId_candidateReviewId: { annotatorId, candidateReviewId: review.id } } });
      return {
        current: row && { id: row.id, version: row.version, value: { highQuality: row.highQuality, justification: row.justification } },
        create: async (value) => (await tx.commentFilterLabel.create({ data: { annotatorId, candidateReviewId: review.id, ...(value as CommentFilterValue) } })).id,
        update: async (id, base, value) => (await tx.commentFilterLabel.updateMany({ where: { id, annotatorId, version: base }, data: { ...(value as CommentFilterValue), version: { increment: 1 } } })).count === 1,
      };
    }
    case "added": {
      const value = request.value;
      if (value.correctsId) {
        const corrected = await tx.pseudoReference.findFirst({ where: { id: value.correctsId, codeChangeId, kind: { in: ["CLAIM", "IMPLICATION"] } }, select: { id: true } });
        if (!corrected) throw new HttpError(400, "The corrected claim is not a claim of this item.");
      }
      const creating = request.targetId.startsWith(NEW_CLAIM_PREFIX);
      // The client key is scoped by the annotator, so one annotator can never reach another's claim through it.
      const externalId = creating ? `added:${annotatorId}:${request.targetId.slice(NEW_CLAIM_PREFIX.length)}` : null;
      const row = await tx.pseudoReference.findFirst({
        where: creating ? { codeChangeId, externalId: externalId! } : { id: request.targetId, codeChangeId },
        select: { id: true, kind: true, addedById: true, text: true, correctsId: true, version: true },
      });
      if (row && (row.kind !== "ANNOTATOR_ADDED" || row.addedById !== annotatorId)) throw new HttpError(404, "No such claim of yours in this item.");
      if (!row && !creating) throw new HttpError(404, "No such claim of yours in this item.");
      return {
        current: row && { id: row.id, version: row.version, value: { text: row.text, correctsId: row.correctsId } },
        create: async (v) => {
          const { text, correctsId } = v as AddedClaimValue;
          const last = await tx.pseudoReference.aggregate({ where: { codeChangeId }, _max: { position: true } });
          const created = await tx.pseudoReference.create({
            data: { codeChangeId, externalId: externalId!, text, kind: "ANNOTATOR_ADDED", source: "annotator", position: (last._max.position ?? 0) + 1, addedById: annotatorId, correctsId },
          });
          return created.id;
        },
        update: async (id, base, v) => {
          const { text, correctsId } = v as AddedClaimValue;
          return (await tx.pseudoReference.updateMany({ where: { id, addedById: annotatorId, version: base }, data: { text, correctsId, version: { increment: 1 } } })).count === 1;
        },
        remove: async (id, base) => {
          if (await tx.consolidationDecision.findUnique({ where: { pseudoReferenceId: id } })) throw new HttpError(409, "A lead has already consolidated this claim; it can no longer be removed.");
          return (await tx.pseudoReference.deleteMany({ where: { id, addedById: annotatorId, version: base } })).count === 1;
        },
      };
    }
  }
}

function checkTask(assignment: OwnAssignment, kind: SaveRequest["kind"]) {
  if (assignment.taskType !== TASK_OF_KIND[kind]) throw new HttpError(400, `This assignment is ${assignment.taskType.toLowerCase().replace("_", " ")}, not ${TASK_OF_KIND[kind].toLowerCase().replace("_", " ")}.`);
  if (assignment.status === "SKIPPED") throw new HttpError(423, "You skipped this item; resume it before annotating.");
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/** Saves one annotation of the user's own assignment; see the module comment for the rules. */
export async function saveAnnotation(user: SessionUser, request: SaveRequest): Promise<SaveResult> {
  const historyKind = HISTORY_KIND[request.kind];
  const deleting = request.kind === "added" && request.value.deleted === true;
  let stale: StaleSave | null = null;
  for (let attempt = 0; attempt < 3 && !stale; attempt++) {
    try {
      return await db.$transaction((tx) => applySave(tx, user, request, deleting));
    } catch (error) {
      // A concurrent save of the same annotation won the race: read again (it then shows as a conflict).
      if (error instanceof StaleSave && error.current !== undefined) stale = error;
      else if (!(error instanceof StaleSave) && !isUniqueViolation(error)) throw error;
    }
  }
  const current = stale?.current ?? null;
  const reason = stale?.reason ?? "concurrent saves";
  await db.annotationHistory.create({
    data: {
      kind: historyKind,
      annotationId: current?.id ?? request.targetId,
      userId: user.id,
      action: "CONFLICT",
      baseVersion: request.baseVersion,
      oldValue: current ? (current.value as Prisma.InputJsonValue) : Prisma.DbNull,
      newValue: request.value as Prisma.InputJsonValue,
    },
  });
  throw new ConflictError(current, { baseVersion: request.baseVersion, value: request.value }, reason);
}

async function applySave(tx: Tx, user: SessionUser, request: SaveRequest, deleting: boolean): Promise<SaveResult> {
  const historyKind = HISTORY_KIND[request.kind];
  const assignment = await findOwnAssignment(tx, user.id, request.assignmentId);
  checkTask(assignment, request.kind);
  const target = await resolveTarget(tx, user, assignment, request);
  const current = target.current;
  if (deleting) {
    if (!current) return { id: null, version: 0, value: null, changed: false };
    if (current.version !== request.baseVersion) throw new StaleSave(`based on version ${request.baseVersion}, but version ${current.version} was saved meanwhile`, current);
    if (!(await target.remove!(current.id, request.baseVersion))) throw new StaleSave("race", undefined);
    await tx.annotationHistory.create({ data: { kind: historyKind, annotationId: current.id, userId: user.id, action: "DELETE", baseVersion: request.baseVersion, oldValue: current.value as Prisma.InputJsonValue } });
    await touchAssignment(tx, assignment);
    return { id: current.id, version: 0, value: null, changed: true };
  }
  const decision = decideSave(current, request.baseVersion, request.value);
  if (decision.type === "noop") return { id: current!.id, version: current!.version, value: current!.value, changed: false };
  if (decision.type === "conflict") throw new StaleSave(decision.reason, current);
  let id: string;
  let version: number;
  if (decision.type === "create") {
    id = await target.create(request.value);
    version = 1;
  } else {
    id = current!.id;
    if (!(await target.update(id, request.baseVersion, request.value))) throw new StaleSave("race", undefined);
    version = request.baseVersion + 1;
  }
  await tx.annotationHistory.create({
    data: {
      kind: historyKind,
      annotationId: id,
      userId: user.id,
      action: decision.type === "create" ? "CREATE" : "UPDATE",
      baseVersion: request.baseVersion,
      oldValue: current ? (current.value as Prisma.InputJsonValue) : Prisma.DbNull,
      newValue: request.value as Prisma.InputJsonValue,
    },
  });
  await touchAssignment(tx, assignment);
  return { id, version, value: request.value, changed: true };
}

/** The first change to an assignment starts it. */
async function touchAssignment(tx: Tx, assignment: OwnAssignment): Promise<void> {
  if (assignment.status === "PENDING") await tx.assignment.updateMany({ where: { id: assignment.id, userId: assignment.userId, status: "PENDING" }, data: { status: "IN_PROGRESS", startedAt: new Date() } });
}

// ---------------------------------------------------------------------------------------------
// Assignment life cycle: submit, skip, resume, time spent

/** What is still missing before the item can be submitted; empty when complete. */
export async function missingForSubmit(client: Tx | typeof db, userId: string, assignment: { taskType: TaskType; codeChangeId: string; studyId: string }): Promise<string[]> {
  const codeChangeId = assignment.codeChangeId;
  switch (assignment.taskType) {
    case "CLAIM_VERIFICATION": {
      const claims = await client.pseudoReference.findMany({ where: { codeChangeId, kind: { in: ["CLAIM", "IMPLICATION"] } }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true } });
      const judged = await client.claimJudgement.findMany({ where: { annotatorId: userId, pseudoReferenceId: { in: claims.map((c) => c.id) } }, select: { pseudoReferenceId: true, code: true, necessary: true } });
      const done = new Set(judged.filter((j) => j.code !== null || j.necessary === false).map((j) => j.pseudoReferenceId));
      const missing = claims.map((c, i) => (done.has(c.id) ? null : i + 1)).filter((n): n is number => n !== null);
      return missing.length ? [`claim${missing.length > 1 ? "s" : ""} ${missing.join(", ")} without a code`] : [];
    }
    case "REVIEW_RATING": {
      const study = await client.study.findUniqueOrThrow({ where: { id: assignment.studyId }, select: { likertDimensions: true } });
      const reviews = await client.candidateReview.findMany({ where: { codeChangeId }, select: { id: true } });
      const ratings = await client.reviewRating.findMany({ where: { annotatorId: userId, candidateReviewId: { in: reviews.map((r) => r.id) } }, select: { scores: true } });
      const complete = ratings.filter((r) => {
        const scores = (r.scores ?? {}) as Record<string, unknown>;
        return study.likertDimensions.every((d) => typeof scores[d] === "number");
      }).length;
      return complete < reviews.length ? [`${reviews.length - complete} of ${reviews.length} reviews without all ${study.likertDimensions.length} scores`] : [];
    }
    case "REFERENCE_GRADING": {
      const reviews = await client.candidateReview.count({ where: { codeChangeId, isReference: false } });
      const graded = await client.referenceGrade.count({ where: { annotatorId: userId, candidateReview: { codeChangeId, isReference: false } } });
      return graded < reviews ? [`${reviews - graded} of ${reviews} reviews without a grade`] : [];
    }
    case "COMMENT_FILTERING": {
      const reviews = await client.candidateReview.count({ where: { codeChangeId } });
      const labelled = await client.commentFilterLabel.count({ where: { annotatorId: userId, candidateReview: { codeChangeId } } });
      return labelled < reviews ? [`${reviews - labelled} of ${reviews} comments without a label`] : [];
    }
  }
}

/** Submits the item: refused (422) while something is missing; submitting twice is harmless. */
export async function submitAssignment(userId: string, assignmentId: string): Promise<{ status: AssignmentStatus }> {
  const assignment = await findOwnAssignment(db, userId, assignmentId);
  if (assignment.status === "SKIPPED") throw new HttpError(423, "You skipped this item; resume it before submitting.");
  const missing = await missingForSubmit(db, userId, assignment);
  if (missing.length > 0) throw new HttpError(422, `Not complete yet: ${missing.join("; ")}.`);
  if (assignment.status !== "DONE") {
    await db.assignment.updateMany({ where: { id: assignment.id, userId }, data: { status: "DONE", completedAt: new Date(), startedAt: assignment.status === "PENDING" ? new Date() : undefined } });
  }
  return { status: "DONE" };
}

export async function skipAssignment(userId: string, assignmentId: string, reason: string): Promise<{ status: AssignmentStatus }> {
  const assignment = await findOwnAssignment(db, userId, assignmentId);
  if (assignment.status === "DONE") throw new HttpError(409, "This item is already submitted.");
  await db.assignment.updateMany({ where: { id: assignment.id, userId }, data: { status: "SKIPPED", skipReason: reason } });
  return { status: "SKIPPED" };
}

export async function resumeAssignment(userId: string, assignmentId: string): Promise<{ status: AssignmentStatus }> {
  const assignment = await findOwnAssignment(db, userId, assignmentId);
  if (assignment.status !== "SKIPPED") return { status: assignment.status };
  await db.assignment.updateMany({ where: { id: assignment.id, userId }, data: { status: "IN_PROGRESS", skipReason: null, startedAt: new Date() } });
  return { status: "IN_PROGRESS" };
}

export { MAX_TIME_REPORT_MS };

/**
 * Adds active time to the assignment and, per annotated claim or review ("claim:<id>",
 * "rating:<id>", "grade:<id>", "filter:<id>"), to the annotator's own annotation of it.
 */
export async function recordTimeSpent(userId: string, assignmentId: string, deltaMs: number, targets: Record<string, number> = {}): Promise<{ timeSpentMs: number }> {
  const assignment = await findOwnAssignment(db, userId, assignmentId);
  const delta = Math.max(0, Math.min(MAX_TIME_REPORT_MS, Math.round(deltaMs)));
  const clamp = (ms: number) => Math.max(0, Math.min(delta, Math.round(ms)));
  const codeChangeId = assignment.codeChangeId;
  await db.$transaction(async (tx) => {
    await tx.assignment.updateMany({
      where: { id: assignment.id, userId },
      data: { timeSpentMs: { increment: delta }, ...(assignment.status === "PENDING" ? { status: "IN_PROGRESS", startedAt: new Date() } : {}) },
    });
    for (const [key, ms] of Object.entries(targets).slice(0, 200)) {
      const [kind, id] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
      const data = { timeSpentMs: { increment: clamp(ms) } };
      if (kind === "claim") await tx.claimJudgement.updateMany({ where: { annotatorId: userId, pseudoReferenceId: id, pseudoReference: { codeChangeId } }, data });
      else if (kind === "rating") await tx.reviewRating.updateMany({ where: { annotatorId: userId, candidateReviewId: id, candidateReview: { codeChangeId } }, data });
      else if (kind === "grade") await tx.referenceGrade.updateMany({ where: { annotatorId: userId, candidateReviewId: id, candidateReview: { codeChangeId } }, data });
      else if (kind === "filter") await tx.commentFilterLabel.updateMany({ where: { annotatorId: userId, candidateReviewId: id, candidateReview: { codeChangeId } }, data });
    }
  });
  return { timeSpentMs: assignment.timeSpentMs + delta };
}
