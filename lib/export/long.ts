/**
 * `long` export (CSV or JSONL): one row per (item, annotator, question) with the claim's or
 * review's text next to its id (no join with the jsonl export needed), the annotator's id and name, the value, timestamps and time spent, the file and lead of the import that wrote
 * it (empty for the annotator's own saves), the import run, the work's status (submitted or
 * draft) and submission time, and the item's consensus value of the
 * question (lib/export/consensus), the tidy layout pandas and R expect. A review comment's rows
 * add its anchor and thread (COMMENT_COLUMNS): in CSV as columns of a study with comment answers,
 * in JSONL as keys of the comment's rows only. A study with judge raters adds `raterKind` after
 * the annotator ("judge" or "person"; other studies keep their bytes).
 */
import type { StudyScales } from "@/lib/analysis/questions";
import { type AnswerFilter, changeAnswers, COMMENT_COLUMNS, type Answer } from "./answers";
import type { CodeChangeConsensus } from "./consensus";
import { csvLine, csvRecord, type CsvOptions } from "./csv";
import type { AnnotatedChange } from "./rows";

export const LONG_COLUMNS = ["task", "codeChange", "item", "itemText", "itemKind", "system", "question", "annotatorId", "annotator", "value", "createdAt", "updatedAt", "timeSpentMs", "importedFrom", "importedBy", "importRun", "status", "submittedAt", "consensus"] as const satisfies readonly (keyof Answer)[];

/** The long columns of a study: `raterKind` after the annotator where it has judge raters. */
function longColumns(judges: boolean, comments: boolean): (keyof Answer)[] {
  const columns: (keyof Answer)[] = judges ? LONG_COLUMNS.flatMap((c) => (c === "annotator" ? [c, "raterKind" as const] : [c])) : [...LONG_COLUMNS];
  return comments ? [...columns, ...COMMENT_COLUMNS] : columns;
}

export async function* longCsv(changes: AsyncIterable<AnnotatedChange>, study: StudyScales, comments: boolean, judges: boolean, consensus: CodeChangeConsensus, filter: AnswerFilter = {}, csv: CsvOptions = {}): AsyncGenerator<string> {
  const columns = longColumns(judges, comments);
  yield csvLine(columns, csv);
  for await (const change of changes) {
    let rows = "";
    for (const answer of changeAnswers(change, study, consensus(change), filter)) rows += csvRecord(answer, columns, csv);
    yield rows;
  }
}

export async function* longJsonl(changes: AsyncIterable<AnnotatedChange>, study: StudyScales, judges: boolean, consensus: CodeChangeConsensus, filter: AnswerFilter = {}): AsyncGenerator<string> {
  const [columns, commentColumns] = [longColumns(judges, false), longColumns(judges, true)];
  for await (const change of changes) {
    yield changeAnswers(change, study, consensus(change), filter)
      .map((answer) => `${JSON.stringify(Object.fromEntries((answer.itemKind === "reviewComment" ? commentColumns : columns).map((c) => [c, answer[c]])))}\n`)
      .join("");
  }
}
