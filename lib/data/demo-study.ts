/** The demo study (lib/seed) seeded, and the row counts of one study, for the seed summary (and anything else that wants an overview). */
import "server-only";
import { Prisma, type PrismaClient } from "@/lib/db/client";
import { AssignmentStatus, PseudoReferenceKind, Role } from "@/lib/generated/prisma/enums";
import { DEMO_STUDY, writeDemoStudy } from "@/lib/seed";

export interface StudyCounts {
  pullRequests: number;
  /** Review comments on the pull requests. */
  reviewComments: number;
  codeChanges: number;
  /** Distinct languages of the code changes, sorted. */
  languages: string[];
  pseudoReferences: Record<PseudoReferenceKind, number>;
  reviews: number;
  referenceReviews: number;
  members: Record<Role, number>;
  assignments: Record<AssignmentStatus, number>;
  claimJudgements: number;
  reviewRatings: number;
  reviewClaimLinks: number;
  referenceGrades: number;
  commentFilteringLabels: number;
  /** AnnotationHistory rows of the study's annotations and added claims. */
  historyRows: number;
}

/** Counts per enum value, zero for values without rows. */
function tally<K extends string>(values: Record<string, K>, groups: Array<{ key: K; count: number }>): Record<K, number> {
  const out = Object.fromEntries(Object.values(values).map((value) => [value, 0])) as Record<K, number>;
  for (const { key, count } of groups) out[key] = count;
  return out;
}

export async function countStudy(client: PrismaClient, studyId: string): Promise<StudyCounts> {
  const inStudy = { codeChange: { studyId } };
  const onReview = { review: inStudy };
  const [pullRequests, reviewComments, changes, kinds, reviews, referenceReviews, members, statuses, judgements, ratings, reviewClaimLinks, grades, filters, added] = await Promise.all([
    client.pullRequest.count({ where: { studyId } }),
    client.reviewComment.count({ where: { pullRequest: { studyId } } }),
    client.codeChange.findMany({ where: { studyId }, select: { language: true } }),
    client.pseudoReference.groupBy({ by: ["kind"], where: inStudy, _count: { _all: true } }),
    client.review.count({ where: inStudy }),
    client.review.count({ where: { ...inStudy, isReference: true } }),
    client.studyMember.groupBy({ by: ["role"], where: { studyId }, _count: { _all: true } }),
    client.assignment.groupBy({ by: ["status"], where: { studyId }, _count: { _all: true } }),
    client.claimJudgement.findMany({ where: { pseudoReference: inStudy }, select: { id: true } }),
    client.reviewRating.findMany({ where: onReview, select: { id: true } }),
    client.reviewClaimLink.count({ where: { rating: onReview } }),
    client.referenceGrade.findMany({ where: onReview, select: { id: true } }),
    client.commentFilteringLabel.findMany({ where: onReview, select: { id: true } }),
    client.pseudoReference.findMany({ where: { ...inStudy, kind: "ANNOTATOR_ADDED" }, select: { id: true } }),
  ]);
  const annotationIds = [judgements, ratings, grades, filters, added].flat().map((row) => row.id);
  return {
    pullRequests,
    reviewComments,
    codeChanges: changes.length,
    languages: [...new Set(changes.map((c) => c.language))].sort(),
    pseudoReferences: tally(PseudoReferenceKind, kinds.map((g) => ({ key: g.kind, count: g._count._all }))),
    reviews,
    referenceReviews,
    members: tally(Role, members.map((g) => ({ key: g.role, count: g._count._all }))),
    assignments: tally(AssignmentStatus, statuses.map((g) => ({ key: g.status, count: g._count._all }))),
    claimJudgements: judgements.length,
    reviewRatings: ratings.length,
    reviewClaimLinks,
    referenceGrades: grades.length,
    commentFilteringLabels: filters.length,
    historyRows: await client.annotationHistory.count({ where: { annotationId: { in: annotationIds } } }),
  };
}

export interface SeedDemoResult {
  /** False when the study already existed; nothing was written then. */
  created: boolean;
  studyId: string;
  slug: string;
  counts: StudyCounts;
}

const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

/**
 * Seeds the demo study in one transaction, unless a study with its slug exists (then nothing
 * changes and `created` is false). Safe to run concurrently: the loser of a race sees the
 * winner's study. Returns the study's row counts either way.
 */
export async function seedDemo(client: PrismaClient): Promise<SeedDemoResult> {
  const slug = DEMO_STUDY.slug;
  const existingId = async () => (await client.study.findUnique({ where: { slug }, select: { id: true } }))?.id;
  let created = false;
  let studyId = await existingId();
  if (studyId === undefined) {
    try {
      studyId = await client.$transaction((tx) => writeDemoStudy(tx, DEMO_STUDY, new Date()), { maxWait: 10_000, timeout: 120_000 });
      created = true;
    } catch (error) {
      studyId = isUniqueViolation(error) ? await existingId() : undefined;
      if (studyId === undefined) throw error;
    }
  }
  return { created, studyId, slug, counts: await countStudy(client, studyId) };
}
