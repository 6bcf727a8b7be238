/** What every import format's parser receives and returns. */
import type { StudyBundle } from "./bundle";
import type { ErrorCollector } from "./errors";
import type { ImportFile } from "./file";

/** Context files by file name (`--context DIR`, or files uploaded with a CRScore sheet). */
export type ContextFiles = ReadonlyMap<string, string>;

/** The study's Likert scale (CRScore Table 7 dimensions, 1-5 by default). */
export interface LikertScale {
  dimensions: readonly string[];
  min: number;
  max: number;
}

export const DEFAULT_LIKERT: LikertScale = { dimensions: ["conciseness", "comprehensiveness", "relevance"], min: 1, max: 5 };

export interface ParseOptions {
  /** The annotator of a CRScore sheet or of GradedReviews grades. */
  annotator?: string;
  context?: ContextFiles;
  likert: LikertScale;
}

export interface ParseResult {
  bundle: StudyBundle;
  /** Things worth telling the lead that do not refuse the import. */
  warnings: string[];
  /** Code changes told apart although they share an id (CRScore sheets). */
  separatedChanges?: string[];
  /** The format reads old and new files from context files, and none were given (CRScore sheets): the import says which changes are left without them. */
  contextNotGiven?: boolean;
}

/** A pure function from one file's bytes to a bundle, reporting problems to `errors`. */
export type Parser = (file: ImportFile, options: ParseOptions, errors: ErrorCollector) => ParseResult | Promise<ParseResult>;

/** Whether `value` is an integer score on the scale; the message says what was expected otherwise. */
export function likertProblem(value: number, scale: LikertScale): string | null {
  return Number.isInteger(value) && value >= scale.min && value <= scale.max ? null : `${value} is not a score from ${scale.min} to ${scale.max}`;
}
