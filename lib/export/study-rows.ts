/**
 * Reads a study for export page by page (code changes in study order with their
 * pseudo-references, reviews and all annotations), so exports stream in constant memory and
 * never hold a whole study.
 */
import type { Prisma, PrismaClient } from "@/lib/db/client";
import type { GoldItems } from "@/lib/data/gold";
import type { TaskType } from "@/lib/generated/prisma/enums";

const ANNOTATOR = { select: { id: true, name: true } } as const;
/** Who ran the import that wrote an annotation (null for the annotator's own saves). */
const IMPORT_RUN = { select: { createdAt: true, createdBy: { select: { email: true } } } } as const;

const CODE_CHANGE_INCLUDE = {
  pullRequest: true,
  /** Whose work is submitted (lib/export/answers.ts workStatus). */
  assignments: { select: { userId: true, taskType: true, status: true, completedAt: true } },
  pseudoReferences: {
    orderBy: [{ position: "asc" }, { externalId: "asc" }],
    include: { addedBy: ANNOTATOR, corrects: { select: { externalId: true } }, judgements: { orderBy: { createdAt: "asc" }, include: { annotator: ANNOTATOR, importRun: IMPORT_RUN } } },
  },
  reviews: {
    orderBy: [{ position: "asc" }, { externalId: "asc" }],
    include: {
      ratings: { orderBy: { createdAt: "asc" }, include: { annotator: ANNOTATOR, importRun: IMPORT_RUN, links: { include: { pseudoReference: { select: { externalId: true } } } } } },
      referenceGrades: { orderBy: { createdAt: "asc" }, include: { annotator: ANNOTATOR, importRun: IMPORT_RUN } },
      commentFilters: { orderBy: { createdAt: "asc" }, include: { annotator: ANNOTATOR, importRun: IMPORT_RUN } },
    },
  },
} satisfies Prisma.CodeChangeInclude;

export type ExportedChange = Prisma.CodeChangeGetPayload<{ include: typeof CODE_CHANGE_INCLUDE }>;
export type ExportedReview = ExportedChange["reviews"][number];
export type ExportedPseudoReference = ExportedChange["pseudoReferences"][number];

/** Code changes per query: a few thousand reviews and their annotations. */
const PAGE = 200;

/** The change without the annotations of a task on its claims and reviews with a known answer for that task (gold, lib/data/gold). */
function withoutGoldAnswers(change: ExportedChange, gold: GoldItems): ExportedChange {
  const known = (task: TaskType, id: string) => gold.get(task)?.has(id) ?? false;
  return {
    ...change,
    pseudoReferences: change.pseudoReferences.map((r) => (known("CLAIM_VERIFICATION", r.id) ? { ...r, judgements: [] } : r)),
    reviews: change.reviews.map((r) => ({
      ...r,
      ratings: known("REVIEW_RATING", r.id) ? [] : r.ratings,
      referenceGrades: known("REFERENCE_GRADING", r.id) ? [] : r.referenceGrades,
      commentFilters: known("COMMENT_FILTERING", r.id) ? [] : r.commentFilters,
    })),
  };
}

/** The study's code changes in order (position, then external id), one page at a time, without the annotations `gold` leaves out. */
export async function* studyChanges(client: PrismaClient, studyId: string, gold: GoldItems = new Map()): AsyncGenerator<ExportedChange> {
  let cursor: string | undefined;
  for (;;) {
    const page = await client.codeChange.findMany({
      where: { studyId },
      orderBy: [{ position: "asc" }, { externalId: "asc" }, { id: "asc" }],
      include: CODE_CHANGE_INCLUDE,
      take: PAGE,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    yield* gold.size > 0 ? page.map((change) => withoutGoldAnswers(change, gold)) : page;
    if (page.length < PAGE) return;
    cursor = page[page.length - 1].id;
  }
}

export interface StudyAnnotator {
  id: string;
  name: string;
}

/** Everyone who annotated anything in the study, by name. */
export async function studyAnnotators(client: PrismaClient, studyId: string): Promise<StudyAnnotator[]> {
  const inStudy = { codeChange: { studyId } };
  const reviewInStudy = { candidateReview: inStudy };
  const where = {
    OR: [
      { claimJudgements: { some: { pseudoReference: inStudy } } },
      { reviewRatings: { some: reviewInStudy } },
      { referenceGrades: { some: reviewInStudy } },
      { commentFilters: { some: reviewInStudy } },
      { addedReferences: { some: inStudy } },
    ],
  } satisfies Prisma.UserWhereInput;
  return client.user.findMany({ where, select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}
