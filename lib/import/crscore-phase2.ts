/**
 * `crscore-phase2`: the CRScore review-quality sheets (CRScore §4.2, codebook Table 7;
 * `py_NAME_review_qual_final.csv`, blank template `py_review_qual_annot.csv`). Each block of a
 * code change has max(#pseudo-references, 10) rows; row k holds pseudo-reference k
 * (`claim_no`, `claim`, `type` claim/issue, the annotator's `necessary?`) and one candidate
 * review (`review`, `system`; `msg` is the human reference) with the annotator's
 * `claims addressed` (`-` = none), optional `partial`, and Likert scores `Con (P)`,
 * `Comp (R)`, `Rel (F)` for conciseness, comprehensiveness and relevance.
 *
 * The pseudo-references restate the stage-1 claims after consolidation (kept claims, the
 * annotators' corrections and added claims, and static-analysis issues); in the Python data
 * every listed claim equals a phase-1 claim or added claim of the same change, so they are
 * keyed by their text like the phase-1 claims and line up with them.
 */
import type { PseudoReferenceKind } from "@/lib/generated/prisma/enums";
import type { AnnotatorRef, ReviewInput, ClaimJudgementInput, PseudoReferenceInput, ReviewRatingInput } from "./bundle";
import { CLAIM_SOURCE, claimExternalId } from "./crscore-phase1";
import { CHANGE_COLUMNS, claimNumbers, parseCrscoreSheet, type Block, type SheetAnnotatorRule } from "./crscore-sheet";
import type { ErrorCollector, SourceLocation } from "./errors";
import { likertProblem, type LikertScale, type ParseOptions, type Parser } from "./parser";
import { cell, cellInteger, rowLocation, type Sheet, type SheetRow } from "./sheet";
import { textKey } from "./text";

/** The system name of the human-written CodeReviewer review. */
export const REFERENCE_SYSTEM = "msg";
/** Source of the `issue` pseudo-references: code analysis tools (CRScore §3.2, Table 14). */
export const SMELL_SOURCE = "static-analysis";
/** Source of added claims whose annotator the sheet does not say. */
export const ADDED_SOURCE = "annotator";

/**
 * The `type` column: `claim` from the LLM, `issue` from static analysis; blank on the claims the
 * annotators added for unverifiable ones (`py_missing_additional_claims.csv`), which equal
 * phase-1 added claims.
 */
const KIND_OF_TYPE: Record<string, PseudoReferenceKind> = { claim: "CLAIM", issue: "SMELL", "": "ANNOTATOR_ADDED" };
const SOURCE_OF_KIND: Record<PseudoReferenceKind, string> = { CLAIM: CLAIM_SOURCE, IMPLICATION: CLAIM_SOURCE, SMELL: SMELL_SOURCE, ANNOTATOR_ADDED: ADDED_SOURCE };

/** The three Likert columns and the dimensions they rate (CRScore Table 7: P, R, F). */
const SCORE_COLUMNS = [
  { key: "con", header: "Con (P)", dimension: "conciseness" },
  { key: "comp", header: "Comp (R)", dimension: "comprehensiveness" },
  { key: "rel", header: "Rel (F)", dimension: "relevance" },
] as const;

const COLUMNS = {
  ...CHANGE_COLUMNS,
  claimNo: { name: "claim_no" },
  claim: { name: "claim" },
  necessary: { name: "necessary?" },
  type: { name: "type" },
  review: { name: "review" },
  system: { name: "system" },
  addressed: { name: "claims addressed" },
  partial: { name: "partial", optional: true },
  con: { name: "Con (P)" },
  comp: { name: "Comp (R)" },
  rel: { name: "Rel (F)" },
};
type Columns = Record<keyof typeof COLUMNS, number>;

/** `py_marcus_review_qual_final.csv` -> marcus; the annotator fills necessity, the claims addressed and the three scores. */
const ANNOTATOR: SheetAnnotatorRule<keyof typeof COLUMNS> = {
  inFileName: /^[a-z]+_([^_.]+)_review_qual/i,
  namePattern: "py_NAME_review_qual_final.csv",
  columns: ["necessary", "addressed", "partial", "con", "comp", "rel"],
  field: "claims addressed",
};

interface BlockClaims {
  references: PseudoReferenceInput[];
  idOfNumber: Map<number, string>;
}

function parseNecessary(value: string, at: SourceLocation, errors: ErrorCollector): boolean | null {
  const trimmed = value.trim();
  if (trimmed === "") return null;
  const flag = cellInteger(trimmed);
  if (flag === 1 || flag === 0) return flag === 1;
  errors.add(at, "necessary?", `"${trimmed}" is not a necessity flag; expected 1 (necessary), 0 (unnecessary) or blank`);
  return null;
}

function necessityJudgement(annotator: AnnotatorRef, necessary: boolean, at: SourceLocation): ClaimJudgementInput {
  return { annotator, code: null, necessary, errorType: null, note: null, timeSpentMs: null, createdAt: null, updatedAt: null, at };
}

/** The pseudo-references listed in a block, by claim number, with the annotator's necessity flags. */
function claimsOfBlock(sheet: Sheet, block: Block, columns: Columns, annotator: AnnotatorRef | null, errors: ErrorCollector): BlockClaims {
  const claims: BlockClaims = { references: [], idOfNumber: new Map() };
  const rowOfId = new Map<string, number>();
  for (const row of block.rows) {
    const text = cell(row, columns.claim).trim();
    if (text === "") continue;
    const at = rowLocation(sheet, row);
    const number = cellInteger(cell(row, columns.claimNo));
    const type = cell(row, columns.type).trim().toLowerCase();
    if (!Number.isInteger(number) || number < 1) errors.add(at, "claim_no", `"${cell(row, columns.claimNo)}" is not a claim number (1, 2, …)`);
    else if (claims.idOfNumber.has(number)) errors.add(at, "claim_no", `claim ${number} is listed twice for this code change`);
    const kind = KIND_OF_TYPE[type];
    if (kind === undefined) {
      errors.add(at, "type", `"${cell(row, columns.type).trim()}" is not a pseudo-reference type; expected claim (from the LLM), issue (from static analysis) or blank (a claim the annotators added)`);
      continue;
    }
    const externalId = kind === "SMELL" ? `smell-${textKey(text)}` : claimExternalId(text);
    const earlier = rowOfId.get(externalId);
    if (earlier !== undefined) {
      errors.add(at, "claim", `repeats the pseudo-reference on row ${earlier}`);
      continue;
    }
    rowOfId.set(externalId, row.row);
    claims.idOfNumber.set(number, externalId);
    const necessary = parseNecessary(cell(row, columns.necessary), at, errors);
    claims.references.push({
      externalId,
      text,
      kind,
      source: SOURCE_OF_KIND[kind],
      position: number,
      addedBy: null,
      corrects: null,
      restated: true,
      matchByText: true,
      judgements: annotator !== null && necessary !== null ? [necessityJudgement(annotator, necessary, at)] : [],
      at,
    });
  }
  return claims;
}

/** Pseudo-reference ids of a `claims addressed` / `partial` cell; null after an error. */
function linkedClaims(value: string, field: string, claims: BlockClaims, at: SourceLocation, errors: ErrorCollector): string[] | null {
  const numbers = claimNumbers(value);
  if (numbers === null) {
    errors.add(at, field, `"${value.trim()}" is not a list of claim numbers; expected e.g. 1,3 or - for none`);
    return null;
  }
  const listed = [...claims.idOfNumber.keys()].sort((a, b) => a - b);
  const unknown = numbers.filter((n) => !claims.idOfNumber.has(n));
  if (unknown.length > 0) {
    errors.add(at, field, `claim ${unknown.join(", ")} is not listed for this code change (${listed.length ? `claims ${listed.join(", ")}` : "it lists no claims"})`);
    return null;
  }
  return numbers.map((n) => claims.idOfNumber.get(n) as string);
}

/** The annotator's rating on a row, or null when its rating cells are blank. */
function ratingOfRow(sheet: Sheet, row: SheetRow, columns: Columns, claims: BlockClaims, annotator: AnnotatorRef, likert: LikertScale, errors: ErrorCollector): ReviewRatingInput | null {
  const at = rowLocation(sheet, row);
  const cells = [columns.addressed, columns.partial, columns.con, columns.comp, columns.rel].map((c) => cell(row, c).trim());
  if (cells.every((c) => c === "")) return null;
  const scores: Record<string, number> = {};
  for (const { key, header, dimension } of SCORE_COLUMNS) {
    const value = cell(row, columns[key]).trim();
    const score = cellInteger(value);
    const problem = value === "" ? "the score is missing (the row's other rating cells are filled)" : Number.isNaN(score) ? `"${value}" is not a score from ${likert.min} to ${likert.max}` : likertProblem(score, likert);
    if (!likert.dimensions.includes(dimension)) errors.add(at, header, `the study has no Likert dimension "${dimension}" (it has ${likert.dimensions.join(", ")})`);
    else if (problem) errors.add(at, header, problem);
    else scores[dimension] = score;
  }
  const addressedCell = cell(row, columns.addressed);
  if (addressedCell.trim() === "") {
    errors.add(at, "claims addressed", "expected the claim numbers the review addresses, or - for none");
    return null;
  }
  const addresses = linkedClaims(addressedCell, "claims addressed", claims, at, errors);
  const partialCell = cell(row, columns.partial);
  const partiallyAddresses = partialCell.trim() === "" ? [] : linkedClaims(partialCell, "partial", claims, at, errors);
  if (addresses === null || partiallyAddresses === null) return null;
  if (partiallyAddresses.some((id) => addresses.includes(id))) errors.add(at, "partial", "a claim is listed both as addressed and as partially addressed");
  return { annotator, scores, comment: null, addresses, partiallyAddresses, timeSpentMs: null, createdAt: null, updatedAt: null, at };
}

function reviewsOfBlock(sheet: Sheet, block: Block, columns: Columns, claims: BlockClaims, annotator: AnnotatorRef | null, likert: LikertScale, errors: ErrorCollector): ReviewInput[] {
  const reviews: ReviewInput[] = [];
  const rowOfSystem = new Map<string, number>();
  block.rows.forEach((row, position) => {
    const at = rowLocation(sheet, row);
    const system = cell(row, columns.system).trim();
    const text = cell(row, columns.review).trim();
    if (system === "") {
      if (text !== "") errors.add(at, "system", "the review names no system");
      return;
    }
    const earlier = rowOfSystem.get(system);
    if (earlier !== undefined) {
      errors.add(at, "system", `system ${system} already has a review on row ${earlier} for this code change`);
      return;
    }
    rowOfSystem.set(system, row.row);
    const rating = annotator === null ? null : ratingOfRow(sheet, row, columns, claims, annotator, likert, errors);
    reviews.push({ externalId: system, system, text, isReference: system === REFERENCE_SYSTEM, position, ratings: rating ? [rating] : [], grades: [], commentFilters: [], at });
  });
  return reviews;
}

export const parseCrscorePhase2: Parser = (file, options: ParseOptions, errors) =>
  parseCrscoreSheet(file, options, errors, { task: "REVIEW_RATING", columns: COLUMNS, annotator: ANNOTATOR }, (sheet, block, columns, annotator) => {
    const claims = claimsOfBlock(sheet, block, columns, annotator, errors);
    return { pseudoReferences: claims.references, reviews: reviewsOfBlock(sheet, block, columns, claims, annotator, options.likert, errors) };
  });
