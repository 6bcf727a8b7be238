/**
 * `long` export (CSV or JSONL): one row per (item, annotator, question) with the annotator's
 * id and name, the value, timestamps and time spent, the tidy layout pandas and R expect.
 */
import { changeAnswers, type Answer } from "./answers";
import { csvLine } from "./csv";
import type { ExportedChange } from "./study-rows";

export const LONG_COLUMNS = ["task", "codeChange", "item", "itemKind", "system", "question", "annotatorId", "annotator", "value", "createdAt", "updatedAt", "timeSpentMs"] as const satisfies readonly (keyof Answer)[];

export async function* longCsv(changes: AsyncIterable<ExportedChange>, dimensions: readonly string[]): AsyncGenerator<string> {
  yield csvLine(LONG_COLUMNS);
  for await (const change of changes) yield changeAnswers(change, dimensions).map((answer) => csvLine(LONG_COLUMNS.map((c) => answer[c]))).join("");
}

export async function* longJsonl(changes: AsyncIterable<ExportedChange>, dimensions: readonly string[]): AsyncGenerator<string> {
  for await (const change of changes) {
    yield changeAnswers(change, dimensions).map((answer) => `${JSON.stringify(Object.fromEntries(LONG_COLUMNS.map((c) => [c, answer[c]])))}\n`).join("");
  }
}
