/**
 * Writes a planned demo study inside one transaction: accounts, study and members, pull
 * requests, code changes (diff computed with `unifiedDiff`) with their pseudo-references and
 * reviews, assignments, annotations, and one AnnotationHistory CREATE row per annotation.
 */
import { addAccount } from "@/lib/data/accounts";
import { storePlanReliabilitySet } from "@/lib/data/item-sets";
import { unifiedDiff } from "@/lib/diff";
import type { AnnotationKind, Prisma } from "@/lib/generated/prisma/client";
import { planDemo, type PlannedAnnotation } from "./plan";
import type { DemoAccount, DemoAnnotatorKey, DemoChange, DemoPullRequest, DemoStudy } from "./types";
import { InvariantError } from "@/lib/errors";

type Tx = Prisma.TransactionClient;

/** Database ids of one change's rows, by the keys the demo data uses. */
interface ChangeIds {
  id: string;
  /** Pseudo-references (including added claims) by key. */
  refs: Map<string, string>;
  /** Reviews by system. */
  reviews: Map<string, string>;
}

interface HistoryEntry {
  kind: AnnotationKind;
  annotationId: string;
  newValue: Prisma.InputJsonValue;
}

function idOf(ids: Map<string, string>, key: string, change: DemoChange): string {
  const id = ids.get(key);
  if (id === undefined) throw new InvariantError(`demo change ${change.externalId} has no pseudo-reference or review "${key}"`);
  return id;
}

/** The existing account with this email, or a new annotator account (hashed password). */
async function ensureAnnotator(tx: Tx, account: DemoAccount, password: string): Promise<string> {
  const existing = await tx.account.findUnique({ where: { email: account.email }, select: { id: true } });
  return existing?.id ?? (await addAccount({ ...account, role: "ANNOTATOR", password }, tx)).id;
}

/** The pull request's review comments, in their order; a reply's thread by the id of the comment it answers. */
async function createComments(tx: Tx, pullRequestId: string, pr: DemoPullRequest, changeIdOf: (change: DemoChange) => string | undefined, createdAt: Date): Promise<void> {
  const ids = new Map<number, string>();
  for (const [position, comment] of pr.comments.entries()) {
    const codeChangeId = changeIdOf(comment.change);
    if (!codeChangeId) throw new InvariantError(`demo comment ${comment.id} is on a file outside its pull request`);
    const row = await tx.reviewComment.create({
      data: {
        pullRequestId,
        codeChangeId,
        externalId: String(comment.id),
        path: comment.change.filePath,
        side: comment.side ?? null,
        startSide: comment.startLine === undefined ? null : (comment.side ?? null),
        startLine: comment.startLine ?? null,
        line: comment.line ?? null,
        body: comment.body,
        system: comment.system,
        author: comment.author,
        inReplyToId: comment.inReplyTo === undefined ? null : (ids.get(comment.inReplyTo) ?? null),
        metadata: comment.metadata ?? {},
        position,
        createdAt,
      },
      select: { id: true },
    });
    ids.set(comment.id, row.id);
  }
}

/** Where a change goes: its study, its order in the study, its pull request if any. */
interface ChangePlacement {
  studyId: string;
  position: number;
  pullRequestId: string | null;
  createdAt: Date;
}

async function createChange(tx: Tx, placement: ChangePlacement, change: DemoChange): Promise<ChangeIds> {
  const { createdAt } = placement;
  const row = await tx.codeChange.create({
    data: {
      ...placement,
      externalId: change.externalId,
      filePath: change.filePath,
      // A pull request's files: modified in place.
      ...(placement.pullRequestId === null ? {} : { status: "MODIFIED" as const, oldPath: change.filePath }),
      language: change.language,
      oldFile: change.oldFile,
      newFile: change.newFile,
      diff: unifiedDiff(change.oldFile, change.newFile, { path: change.filePath }),
      metadata: change.metadata ?? {},
      pseudoReferences: {
        create: change.pseudoReferences.map((ref, i) => ({ externalId: ref.key, text: ref.text, kind: ref.kind, source: ref.source, position: i, createdAt })),
      },
      reviews: {
        create: change.reviews.map((review, i) => ({ externalId: review.system, system: review.system, text: review.text, isReference: review.isReference ?? false, position: i, createdAt })),
      },
    },
    select: { id: true, pseudoReferences: { select: { id: true, externalId: true } }, reviews: { select: { id: true, externalId: true } } },
  });
  return {
    id: row.id,
    refs: new Map(row.pseudoReferences.map((ref) => [ref.externalId, ref.id])),
    reviews: new Map(row.reviews.map((review) => [review.externalId, review.id])),
  };
}

/** Writes one annotation and returns what its history row records (the value as the workspace edits it). */
async function writeAnnotation(tx: Tx, a: PlannedAnnotation, annotatorId: string, ids: ChangeIds): Promise<HistoryEntry> {
  const times = { timeSpentMs: a.timeSpentMs, createdAt: a.createdAt, updatedAt: a.createdAt };
  switch (a.kind) {
    case "judgement": {
      const value = { code: a.value.code, necessary: a.value.necessary ?? true, errorType: a.value.errorType ?? null, note: a.value.note ?? "" };
      const row = await tx.claimJudgement.create({ data: { annotatorId, pseudoReferenceId: idOf(ids.refs, a.target, a.change), ...value, ...times }, select: { id: true } });
      return { kind: "CLAIM_JUDGEMENT", annotationId: row.id, newValue: value };
    }
    case "addedClaim": {
      const correctsId = a.value.corrects === undefined ? null : idOf(ids.refs, a.value.corrects, a.change);
      const row = await tx.pseudoReference.create({
        data: { codeChangeId: ids.id, externalId: a.value.key, text: a.value.text, kind: "ANNOTATOR_ADDED", source: "annotator", position: ids.refs.size, addedById: annotatorId, correctsId, createdAt: a.createdAt, updatedAt: a.createdAt },
        select: { id: true },
      });
      ids.refs.set(a.value.key, row.id);
      return { kind: "PSEUDO_REFERENCE", annotationId: row.id, newValue: { text: a.value.text, correctsId } };
    }
    case "rating": {
      const { conciseness, comprehensiveness, relevance, addresses = [], partially = [], comment = "" } = a.value;
      const scores = { conciseness, comprehensiveness, relevance };
      const links = [...addresses.map((key) => ({ key, partial: false })), ...partially.map((key) => ({ key, partial: true }))].map(({ key, partial }) => ({ pseudoReferenceId: idOf(ids.refs, key, a.change), partial }));
      const row = await tx.reviewRating.create({
        data: { annotatorId, reviewId: idOf(ids.reviews, a.target, a.change), scores, comment, links: { create: links }, ...times },
        select: { id: true },
      });
      return { kind: "REVIEW_RATING", annotationId: row.id, newValue: { scores, links, comment } };
    }
    case "grade": {
      const value = { grade: a.value, comment: "" };
      const row = await tx.referenceGrade.create({ data: { annotatorId, reviewId: idOf(ids.reviews, a.target, a.change), ...value, ...times }, select: { id: true } });
      return { kind: "REFERENCE_GRADE", annotationId: row.id, newValue: value };
    }
    case "label": {
      const value = { highQuality: a.value.highQuality, justification: a.value.justification };
      const row = await tx.commentFilteringLabel.create({ data: { annotatorId, reviewId: idOf(ids.reviews, a.target, a.change), ...value, ...times }, select: { id: true } });
      return { kind: "COMMENT_FILTERING_LABEL", annotationId: row.id, newValue: value };
    }
  }
}

/**
 * Creates the whole study and returns its id. It belongs to the first lead (e.g. the one created
 * on first start): its owner and LEAD member; other leads see it only once added as members.
 */
export async function writeDemoStudy(tx: Tx, study: DemoStudy, now: Date): Promise<string> {
  const plan = planDemo(study, now);
  /** Study, items and assignments exist from the start of the demo's timeline. */
  const createdAt = plan.startsAt;
  const accountIds = {} as Record<DemoAnnotatorKey, string>;
  for (const [key, account] of Object.entries(study.annotators) as Array<[DemoAnnotatorKey, DemoAccount]>) {
    accountIds[key] = await ensureAnnotator(tx, account, study.annotatorPassword);
  }
  const leads = await tx.account.findMany({ where: { role: "LEAD" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true }, take: 1 });
  const { id: studyId } = await tx.study.create({
    data: {
      slug: study.slug,
      name: study.name,
      description: study.description,
      guidelines: study.guidelines,
      tasks: study.tasks,
      annotatorsPerItem: study.annotatorsPerItem,
      reliabilitySetSize: study.reliabilitySet.length,
      assignmentSeed: study.assignmentSeed,
      // The demo lets annotators try review rating before a lead consolidates stage 1.
      stageOrder: false,
      createdAt,
      ownerId: leads[0]?.id ?? null,
      members: {
        create: [...Object.values(accountIds).map((accountId) => ({ accountId, role: "ANNOTATOR" as const, createdAt })), ...leads.map((lead) => ({ accountId: lead.id, role: "LEAD" as const, createdAt }))],
      },
    },
    select: { id: true },
  });

  const codeChangeIds = new Map<DemoChange, ChangeIds>();
  for (const change of study.changes) codeChangeIds.set(change, await createChange(tx, { studyId, position: codeChangeIds.size, pullRequestId: null, createdAt }, change));
  for (const pr of study.pullRequests) {
    const { id: pullRequestId } = await tx.pullRequest.create({
      data: { studyId, externalId: pr.externalId, repository: pr.repository, url: pr.url, title: pr.title, description: pr.description, createdAt },
      select: { id: true },
    });
    for (const change of pr.changes) codeChangeIds.set(change, await createChange(tx, { studyId, position: codeChangeIds.size, pullRequestId, createdAt }, change));
    await createComments(tx, pullRequestId, pr, (change) => codeChangeIds.get(change)?.id, createdAt);
  }
  const idsOf = (change: DemoChange): ChangeIds => {
    const ids = codeChangeIds.get(change);
    if (!ids) throw new InvariantError(`demo change ${change.externalId} is in no list of the study`);
    return ids;
  };

  await tx.assignment.createMany({
    data: plan.assignments.map(({ annotator, change, ...fields }) => ({ studyId, annotatorId: accountIds[annotator], codeChangeId: idsOf(change).id, createdAt, ...fields })),
  });
  // The demo's study design names its reliability set; stored as the study's reliability item set.
  const byExternalId = new Map([...codeChangeIds].map(([change, ids]) => [change.externalId, ids.id]));
  await storePlanReliabilitySet(tx, studyId, study.reliabilitySet.map((id) => byExternalId.get(id) as string), study.assignmentSeed, leads[0]?.id ?? null);
  const history: Prisma.AnnotationHistoryCreateManyInput[] = [];
  for (const annotation of plan.annotations) {
    const accountId = accountIds[annotation.annotator];
    const entry = await writeAnnotation(tx, annotation, accountId, idsOf(annotation.change));
    history.push({ ...entry, accountId, action: "CREATE", baseVersion: 0, createdAt: annotation.createdAt });
  }
  await tx.annotationHistory.createMany({ data: history });
  return studyId;
}
