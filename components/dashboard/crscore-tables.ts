/**
 * The CRScore validation tables of the study page "CRScore tables", built from the objects the
 * CLI prints (`crscore-table4`, the end of `pseudo-refs`), formatted only: Table 4 (the similarity
 * threshold against the annotators' claim links), Table 14 (smell types per language) and
 * Table 6 (radon's ranks). Each table's title names the paper's table.
 */
import type { Table4Report } from "@/lib/analysis";
import type { SmellTables } from "@/lib/pseudo-refs";
import { count, fileSlug, num, type TableData, text } from "./table-data";

/** How Table 4 names each kind of row. */
export const TABLE_4_ROW_LABELS = { grid: "Table 18 grid", tau: "CRScore's τ (the paper's τ_best row)", gt: "τ_GT (human reference reviews)", best: "highest F1 here" } as const;

/** Where a τ came from, in words, for the note under Table 4. */
export function tauOrigin(tau: Table4Report["tau"]): string {
  const c = tau.calibration;
  const on = c ? `, ${c.sentences} sentences of ${c.reviews} reviews on ${c.items === "unannotated" ? "the changes nobody annotated" : "all changes (none is unannotated)"}` : "";
  switch (tau.source) {
    case "paper":
      return "the paper's τ for its embedding model";
    case "best-system":
      return `calibrated by the paper's procedure on ${c?.system ?? "the best system"}'s review sentences${on}`;
    case "gt":
      return `calibrated on the human reference reviews${on}`;
    case "paper-default":
      return "the paper's τ: no review sentence with a pseudo-reference to calibrate on";
    default:
      return tau.source;
  }
}

export function table4Table(slug: string, r: Table4Report): TableData {
  return {
    id: "crscore-table-4",
    title: r.title,
    filename: fileSlug(slug, "crscore-table-4"),
    empty: "No stage-2 rating of a candidate review with claims to link.",
    columns: [
      { key: "tau", label: "τ", numeric: true },
      { key: "kind", label: "Threshold" },
      { key: "precision", label: "P", numeric: true },
      { key: "recall", label: "R", numeric: true },
      { key: "f1", label: "F1", numeric: true },
      { key: "tp", label: "True positives", numeric: true },
      { key: "fp", label: "False positives", numeric: true },
      { key: "fn", label: "False negatives", numeric: true },
    ],
    rows: r.rows.map((row) => ({
      key: `${row.kind}-${row.tau.toFixed(4)}`,
      cells: [num(row.tau), text(TABLE_4_ROW_LABELS[row.kind]), num(row.precision), num(row.recall), num(row.f1), count(row.truePositives), count(row.falsePositives), count(row.falseNegatives)],
    })),
  };
}

export function table14Table(slug: string, t: SmellTables["table14"]): TableData {
  return {
    id: "crscore-table-14",
    title: t.title,
    filename: fileSlug(slug, "crscore-table-14"),
    empty: "No generated smell yet: start a smells run on the pseudo-references page.",
    columns: [
      { key: "language", label: "Language" },
      { key: "smellType", label: "Smell type" },
      { key: "count", label: "Smells", numeric: true },
    ],
    rows: t.rows.map((row) => ({ key: `${row.language}:${row.smellType}`, cells: [text(row.language), text(row.smellType), count(row.count)] })),
  };
}

export function table6Table(slug: string, t: SmellTables["table6"]): TableData {
  return {
    id: "crscore-table-6",
    title: t.title,
    filename: fileSlug(slug, "crscore-table-6"),
    columns: [
      { key: "rank", label: "Rank" },
      { key: "scores", label: "CC score" },
      { key: "risk", label: "Risk" },
      { key: "blocks", label: "Blocks", numeric: true },
    ],
    rows: t.rows.map((row) => ({ key: row.rank, cells: [text(row.rank), text(row.scores), text(row.risk), count(row.blocks)] })),
  };
}
