/**
 * `wide` export (CSV or JSONL): one row per (item, question), with the claim's or review's text
 * next to its id, and one column per annotator, the
 * rating matrix from which anyone can recompute agreement (e.g. Cohen's kappa, Krippendorff's
 * alpha) outside the product, then the consensus. A blank cell: that annotator did not answer.
 * A review comment's rows add its anchor and thread (COMMENT_COLUMNS, after the item's columns):
 * in CSV as columns of a study with comment answers, in JSONL as keys of the comment's rows only.
 */
import type { StudyScales } from "@/lib/analysis/questions";
import { type AnswerFilter, changeAnswers, COMMENT_COLUMNS, type Answer } from "./answers";
import type { CodeChangeConsensus, ExportConsensus } from "./consensus";
import { csvLine, type CsvOptions } from "./csv";
import type { AnnotatedChange, StudyAnnotator } from "./rows";

export const WIDE_ITEM_COLUMNS = ["task", "codeChange", "item", "itemText", "itemKind", "system", "question"] as const satisfies readonly (keyof Answer)[];

/** The last column: the item's consensus value of the question (blank: none). */
export const CONSENSUS_COLUMN = "consensus";

/** Column name of each annotator: the name, with the account id when two annotators share a name. */
export function annotatorColumns(annotators: readonly StudyAnnotator[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const a of annotators) count.set(a.name, (count.get(a.name) ?? 0) + 1);
  return new Map(annotators.map((a) => [a.id, (count.get(a.name) ?? 0) > 1 ? `${a.name} (${a.id})` : a.name]));
}

const WIDE_COMMENT_COLUMNS = [...WIDE_ITEM_COLUMNS, ...COMMENT_COLUMNS];

interface WideRow {
  item: Pick<Answer, (typeof WIDE_COMMENT_COLUMNS)[number]>;
  values: Map<string, string>;
  consensus: string;
}

/** The rows of one code change: answers grouped by (task, item, question) in first-seen order. */
function wideRows(change: AnnotatedChange, study: StudyScales, consensus: ExportConsensus, filter: AnswerFilter): WideRow[] {
  const rows = new Map<string, WideRow>();
  for (const answer of changeAnswers(change, study, consensus, filter)) {
    const key = `${answer.task}|${answer.itemKind}|${answer.item}|${answer.question}`;
    let row = rows.get(key);
    if (!row) {
      const columns = answer.itemKind === "reviewComment" ? WIDE_COMMENT_COLUMNS : WIDE_ITEM_COLUMNS;
      row = { item: Object.fromEntries(columns.map((c) => [c, answer[c]])) as WideRow["item"], values: new Map(), consensus: answer.consensus };
      rows.set(key, row);
    }
    row.values.set(answer.annotatorId, answer.value);
  }
  return [...rows.values()];
}

export async function* wideCsv(changes: AsyncIterable<AnnotatedChange>, study: StudyScales, comments: boolean, annotators: readonly StudyAnnotator[], consensus: CodeChangeConsensus, filter: AnswerFilter = {}, csv: CsvOptions = {}): AsyncGenerator<string> {
  const columns = annotatorColumns(annotators);
  const itemColumns = comments ? WIDE_COMMENT_COLUMNS : WIDE_ITEM_COLUMNS;
  yield csvLine([...itemColumns, ...columns.values(), CONSENSUS_COLUMN], csv);
  for await (const change of changes) {
    yield wideRows(change, study, consensus(change), filter)
      .map((row) => csvLine([...itemColumns.map((c) => row.item[c] ?? null), ...[...columns.keys()].map((id) => row.values.get(id) ?? null), row.consensus], csv))
      .join("");
  }
}

export async function* wideJsonl(changes: AsyncIterable<AnnotatedChange>, study: StudyScales, annotators: readonly StudyAnnotator[], consensus: CodeChangeConsensus, filter: AnswerFilter = {}): AsyncGenerator<string> {
  const columns = annotatorColumns(annotators);
  for await (const change of changes) {
    yield wideRows(change, study, consensus(change), filter)
      .map((row) => `${JSON.stringify({ ...row.item, ...Object.fromEntries([...columns].map(([id, column]) => [column, row.values.get(id) ?? null])), [CONSENSUS_COLUMN]: row.consensus || null })}\n`)
      .join("");
  }
}
