/**
 * `long` export (CSV or JSONL): one row per (item, annotator, question) with the claim's or
 * review's text next to its id (no join with the jsonl export needed), the annotator's id and name, the value, timestamps and time spent, the file and lead of the import that wrote
 * it (empty for the annotator's own saves), the import run, the work's status (submitted or
 * draft) and submission time, and the item's consensus value of the
 * question (lib/export/consensus), the tidy layout pandas and R expect.
 */
import { type AnswerFilter, changeAnswers, type Answer } from "./answers";
import type { ChangeConsensus } from "./consensus";
import { csvLine, csvRecord, type CsvOptions } from "./csv";
import type { AnnotatedChange } from "./rows";

export const LONG_COLUMNS = ["task", "codeChange", "item", "itemText", "itemKind", "system", "question", "annotatorId", "annotator", "value", "createdAt", "updatedAt", "timeSpentMs", "importedFrom", "importedBy", "importRun", "status", "submittedAt", "consensus"] as const satisfies readonly (keyof Answer)[];

export async function* longCsv(changes: AsyncIterable<AnnotatedChange>, dimensions: readonly string[], consensus: ChangeConsensus, filter: AnswerFilter = {}, csv: CsvOptions = {}): AsyncGenerator<string> {
  yield csvLine(LONG_COLUMNS, csv);
  for await (const change of changes) {
    let rows = "";
    for (const answer of changeAnswers(change, dimensions, consensus(change), filter)) rows += csvRecord(answer, LONG_COLUMNS, csv);
    yield rows;
  }
}

export async function* longJsonl(changes: AsyncIterable<AnnotatedChange>, dimensions: readonly string[], consensus: ChangeConsensus, filter: AnswerFilter = {}): AsyncGenerator<string> {
  for await (const change of changes) {
    yield changeAnswers(change, dimensions, consensus(change), filter).map((answer) => `${JSON.stringify(Object.fromEntries(LONG_COLUMNS.map((c) => [c, answer[c]])))}\n`).join("");
  }
}
