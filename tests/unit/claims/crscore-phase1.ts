import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { claimExternalId } from "@/lib/import/crscore-phase1";
import { hasSharedFile, sharedPath } from "../../shared-data";

/**
 * Minimal reader of the CRScore phase-1 claim sheets (../shared/data/crscore/phase1), read in
 * place. One row per LLM claim; the correctness header spans several lines
 * ("Correctness\n0 - incorrect\n…"). Production CSV import lives elsewhere.
 */
export const PHASE1 = ["data", "crscore", "phase1"] as const;
export const ANNOTATORS = ["atharva", "marcus"] as const;
export type Annotator = (typeof ANNOTATORS)[number];

const file = (annotator: Annotator) => [...PHASE1, `py_claim_acc_annot_${annotator}.csv`];
export const hasPhase1 = ANNOTATORS.every((a) => hasSharedFile(...file(a)));

export interface ClaimRow {
  /** Judgement code, or null when blank. */
  code: number | null;
  /** Whether the annotator filled in `additional claims` (an added or corrected claim). */
  added: boolean;
}

export function readClaimSheet(annotator: Annotator): ClaimRow[] {
  // Skipped suites are still collected: without the sheets there is nothing to read.
  if (!hasPhase1) return [];
  const [header, ...rows] = parse(readFileSync(sharedPath(...file(annotator)), "utf8")) as string[][];
  const codeColumn = header.findIndex((h) => h.startsWith("Correctness"));
  const addedColumn = header.indexOf("additional claims");
  if (codeColumn < 0 || addedColumn < 0) throw new Error(`unexpected header in ${annotator}'s sheet: ${header.join(" | ")}`);
  return rows.map((row) => {
    const cell = row[codeColumn].trim();
    return { code: cell === "" ? null : Number(cell), added: row[addedColumn].trim() !== "" };
  });
}

/**
 * The paper's phase-1 reliability set (CRScore §4.2): the claims of sheet rows 395-494 (data rows,
 * 0-based; the last 100 claims both annotators judged), as item-file lines `CODE_CHANGE_ID/CLAIM_ID`.
 */
export function paperReliabilityIds(): string[] {
  if (!hasPhase1) return [];
  const [header, ...rows] = parse(readFileSync(sharedPath(...file("marcus")), "utf8")) as string[][];
  const [idColumn, claimColumn] = [header.indexOf("id"), header.indexOf("claim")];
  let change = "";
  const ids = rows.map((row) => {
    change = row[idColumn].trim() || change;
    return `${change}/${claimExternalId(row[claimColumn])}`;
  });
  return ids.slice(395, 495);
}
