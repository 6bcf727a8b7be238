/**
 * `crscore-phase1`: the CRScore claim-accuracy sheets (CRScore §4.1, codebook Table 8;
 * `py_claim_acc_annot[_NAME].csv`). One row per LLM claim. The blank template imports the
 * claims; an annotator's sheet also imports that annotator's judgements: the correctness code,
 * an added or corrected claim (`additional claims`) as an ANNOTATOR_ADDED pseudo-reference,
 * and, in marcus's sheet, the `error type` of CRScore Table 12.
 */
import type { ClaimCode } from "@/lib/generated/prisma/enums";
import type { AnnotatorRef, ClaimJudgementInput, PseudoReferenceInput } from "./bundle";
import { claimCodeOfNumber, claimErrorTypeOf, SHEET_CLAIM_CODES } from "./claim-codes";
import { CHANGE_COLUMNS, parseCrscoreSheet, type Block, type SheetAnnotatorRule } from "./crscore-sheet";
import type { ErrorCollector } from "./errors";
import type { ParseOptions, Parser } from "./parser";
import { cell, cellInteger, rowLocation, type Sheet, type SheetRow } from "./sheet";
import { textKey } from "./text";

/** The source of the stage-1 claims: CRScore's fine-tuned Magicoder-S-DS-6.7B (§3.2). */
export const CLAIM_SOURCE = "magicoder";

const COLUMNS = {
  ...CHANGE_COLUMNS,
  claim: { name: "claim" },
  code: { name: "correctness", prefix: true },
  basedOnDiff: { name: "based on diff", optional: true },
  additional: { name: "additional claims" },
  errorType: { name: "error type", optional: true },
};
type Columns = Record<keyof typeof COLUMNS, number>;

/** `py_claim_acc_annot_marcus.csv` -> marcus; the annotator fills correctness, based on diff, additional claims and error type. */
const ANNOTATOR: SheetAnnotatorRule<keyof typeof COLUMNS> = {
  inFileName: /_annot_([^_.]+)\.[^.]+$/i,
  namePattern: "py_claim_acc_annot_NAME.csv",
  columns: ["code", "basedOnDiff", "additional", "errorType"],
  field: "Correctness",
};

/** External id of a claim: its text identifies it, so phase-2 sheets listing it again line up. */
export function claimExternalId(text: string): string {
  return `claim-${textKey(text)}`;
}

const CODES_EXPECTED = "expected 1 (correct), 0 (incorrect), -1 (unverifiable), -2 (incomplete) or 2 (ambiguous)";

function parseCode(value: string): ClaimCode | null | undefined {
  const trimmed = value.trim();
  if (trimmed === "") return null;
  const number = cellInteger(trimmed);
  return SHEET_CLAIM_CODES.includes(number) ? claimCodeOfNumber(number) : undefined;
}

/** Annotator's cells of one row; null when the annotator left the row blank. */
function judgementOfRow(sheet: Sheet, row: SheetRow, columns: Columns, annotator: AnnotatorRef, errors: ErrorCollector): ClaimJudgementInput | null {
  const at = rowLocation(sheet, row);
  const codeCell = cell(row, columns.code);
  const basedOnDiff = cell(row, columns.basedOnDiff).trim();
  const errorTypeCell = cell(row, columns.errorType).trim();
  if (codeCell.trim() === "" && basedOnDiff === "" && errorTypeCell === "" && cell(row, columns.additional).trim() === "") return null;
  const code = parseCode(codeCell);
  if (code === undefined) errors.add(at, "Correctness", `"${codeCell.trim()}" is not a claim code; ${CODES_EXPECTED}`);
  const errorType = claimErrorTypeOf(errorTypeCell);
  const note = [basedOnDiff && `based on diff: ${basedOnDiff}`, errorTypeCell && errorType === null && `error type: ${errorTypeCell}`].filter(Boolean).join("\n");
  return { annotator, code: code ?? null, necessary: null, errorType, note: note || null, timeSpentMs: null, createdAt: null, updatedAt: null, at };
}

/**
 * The claims of one block, with the annotator's judgements and added claims. An added claim
 * on the row of a claim judged incorrect (0) or incomplete (-2) corrects that claim; on other
 * rows it is a missing claim (CRScore's N_a).
 */
function pseudoReferencesOfBlock(sheet: Sheet, block: Block, columns: Columns, annotator: AnnotatorRef | null, errors: ErrorCollector): PseudoReferenceInput[] {
  const references: PseudoReferenceInput[] = [];
  const rowOfId = new Map<string, number>();
  const add = (reference: PseudoReferenceInput, field: string) => {
    const earlier = rowOfId.get(reference.externalId);
    if (earlier !== undefined) errors.add(reference.at, field, `repeats the claim on row ${earlier}`);
    else {
      rowOfId.set(reference.externalId, reference.at.row ?? 0);
      references.push(reference);
    }
  };
  block.rows.forEach((row, i) => {
    const at = rowLocation(sheet, row);
    const text = cell(row, columns.claim).trim();
    if (text === "") {
      errors.add(at, "claim", "the claim is empty");
      return;
    }
    const judgement = annotator === null ? null : judgementOfRow(sheet, row, columns, annotator, errors);
    const claim: PseudoReferenceInput = {
      externalId: claimExternalId(text),
      text,
      kind: "CLAIM",
      source: CLAIM_SOURCE,
      position: i + 1,
      addedBy: null,
      corrects: null,
      restated: false,
      matchByText: true,
      judgements: judgement ? [judgement] : [],
      at,
    };
    add(claim, "claim");
    const addedText = cell(row, columns.additional).trim();
    if (annotator === null || addedText === "") return;
    const corrects = judgement?.code === "INCORRECT" || judgement?.code === "INCOMPLETE";
    add(
      {
        externalId: claimExternalId(addedText),
        text: addedText,
        kind: "ANNOTATOR_ADDED",
        source: annotator.name,
        position: i + 1,
        addedBy: annotator,
        corrects: corrects ? claim.externalId : null,
        restated: false,
        matchByText: true,
        judgements: [],
        at,
      },
      "additional claims",
    );
  });
  return references;
}

export const parseCrscorePhase1: Parser = (file, options: ParseOptions, errors) =>
  parseCrscoreSheet(file, options, errors, { task: "CLAIM_VERIFICATION", columns: COLUMNS, annotator: ANNOTATOR }, (sheet, block, columns, annotator) => ({
    pseudoReferences: pseudoReferencesOfBlock(sheet, block, columns, annotator, errors),
    reviews: [],
  }));
