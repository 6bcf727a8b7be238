/**
 * Which exports a study has the data for: the study page offers only those, and the route and the
 * command line refuse the others (409) saying what is missing, e.g. a GradedReviews workbook of a
 * study nobody graded (its Grade columns would all be blank).
 */
import { db, type PrismaClient } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { EXPORT_FORMATS, EXPORT_NEEDS, type ExportData, type ExportFormat } from "./formats";

export interface ExportOffer {
  formats: ExportFormat[];
  /** Whether the study has gold items (known answers), which the exports leave out unless asked for. */
  gold: boolean;
  /** The names of those who graded the study's reviews: whose grades a GradedReviews workbook can hold. */
  graders: string[];
}

/** The annotators who graded reviews of the study, by name (the page's grader picker). */
export function studyGraders(client: PrismaClient, studyId: string): Promise<{ id: string; name: string }[]> {
  return client.user.findMany({ where: { referenceGrades: { some: { review: { codeChange: { studyId } } } } }, select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}

/** Whether any annotation of the study's claims or reviews exists (one row looked up per table at most). */
async function hasAnnotations(client: PrismaClient, studyId: string): Promise<boolean> {
  const inStudy = { codeChange: { studyId } };
  const found = [
    () => client.claimJudgement.findFirst({ where: { pseudoReference: inStudy }, select: { id: true } }),
    () => client.reviewRating.findFirst({ where: { review: inStudy }, select: { id: true } }),
    () => client.referenceGrade.findFirst({ where: { review: inStudy }, select: { id: true } }),
    () => client.commentFilterLabel.findFirst({ where: { review: inStudy }, select: { id: true } }),
  ];
  for (const find of found) if (await find()) return true;
  return false;
}

/** The formats the study has data for, one statement at a time (an export takes one connection of the pool). */
export async function exportOffer(studyId: string, client: PrismaClient = db): Promise<ExportOffer> {
  const changes = (await client.codeChange.findFirst({ where: { studyId }, select: { id: true } })) !== null;
  const annotations = changes && (await hasAnnotations(client, studyId));
  const graders = annotations ? (await studyGraders(client, studyId)).map((g) => g.name) : [];
  const comments = changes && (await client.reviewComment.findFirst({ where: { pullRequest: { studyId } }, select: { id: true } })) !== null;
  const has: Record<ExportData, boolean> = { "code changes": changes, annotations, "reference grades": graders.length > 0, "review comments": comments };
  const gold = (await client.consensus.findFirst({ where: { studyId, gold: true }, select: { id: true } })) !== null;
  return { formats: EXPORT_FORMATS.filter((format) => has[EXPORT_NEEDS[format]]), gold, graders };
}

/** The refusal of a format the study has no data for. */
export const noExportData = (format: ExportFormat) => new AppError("CONFLICT", { message: `This study has no ${EXPORT_NEEDS[format]} yet, so there is nothing to export as ${format}.` });

/** Refuses (409) a format the study has no data for. */
export async function requireExportData(client: PrismaClient, studyId: string, format: ExportFormat): Promise<void> {
  if (!(await exportOffer(studyId, client)).formats.includes(format)) throw noExportData(format);
}
