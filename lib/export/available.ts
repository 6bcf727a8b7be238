/**
 * Which exports a study has the data for: the study page offers only those, and the route and the
 * command line refuse the others (409) saying what is missing, e.g. a GradedReviews workbook of a
 * study nobody graded (its Grade columns would all be blank).
 */
import { AppError } from "@/lib/errors";
import { EXPORT_FORMATS, EXPORT_NEEDS, type ExportData, type ExportFormat } from "./formats";

export interface ExportOffer {
  formats: ExportFormat[];
  /** Whether the study has gold items (known answers), which the exports leave out unless asked for. */
  gold: boolean;
  /** The names of those who graded the study's reviews: whose grades a GradedReviews workbook can hold. */
  graders: string[];
}

/** The formats whose data (EXPORT_NEEDS) the study has. */
export function offeredFormats(has: Record<ExportData, boolean>): ExportFormat[] {
  return EXPORT_FORMATS.filter((format) => has[EXPORT_NEEDS[format]]);
}

/** The refusal of a format the study has no data for. */
export const noExportData = (format: ExportFormat) => new AppError("CONFLICT", { message: `This study has no ${EXPORT_NEEDS[format]} yet, so there is nothing to export as ${format}.` });
