/**
 * The Parquet export (docs/jsonl-format.md): the long export's rows, one table per task (the kind
 * of answer: claim judgements, review ratings, reference grades, comment filtering labels, comment
 * answers), each row with its item's text and the item's consensus value of the question, as
 * pandas and Hugging Face's `datasets` read them. Written with hyparquet-writer; a column's type
 * follows its values: numbers DOUBLE, booleans BOOLEAN, texts STRING, anything else JSON, each
 * nullable. The rows are held in memory until their table is written.
 */
import { parquetWriteBuffer } from "hyparquet-writer";

type Row = Record<string, unknown>;

/** A task's table: its file name (the task in lower case with dashes), its rows and the Parquet file. */
export interface ParquetTable {
  task: string;
  file: string;
  rows: number;
  buffer: ArrayBuffer;
}

/** The Parquet type of a column's values (nulls aside): DOUBLE, BOOLEAN, STRING, else JSON. */
function columnType(values: readonly unknown[]): "DOUBLE" | "BOOLEAN" | "STRING" | "JSON" {
  const present = values.filter((v) => v !== null && v !== undefined);
  for (const [type, is] of [
    ["DOUBLE", (v: unknown) => typeof v === "number"],
    ["BOOLEAN", (v: unknown) => typeof v === "boolean"],
    ["STRING", (v: unknown) => typeof v === "string"],
  ] as const) {
    if (present.length > 0 && present.every(is)) return type;
  }
  return present.length === 0 ? "STRING" : "JSON";
}

/** One Parquet file of rows: the columns in the order the rows first name them; a row without a column holds null there. */
export function parquetOfRows(rows: readonly Row[]): ArrayBuffer {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return parquetWriteBuffer({
    columnData: names.map((name) => {
      const data = rows.map((row) => (row[name] === undefined ? null : row[name]));
      return { name, data, type: columnType(data) };
    }),
  });
}

/** The long export's JSONL (its chunks in order) as one table per task, in the order the tasks first appear. */
export async function parquetTablesOfLong(longJsonl: AsyncIterable<string | Uint8Array>): Promise<ParquetTable[]> {
  const byTask = new Map<string, Row[]>();
  const decoder = new TextDecoder();
  let rest = "";
  const take = (line: string) => {
    if (line.trim() === "") return;
    const row = JSON.parse(line) as Row;
    const task = String(row.task);
    const rows = byTask.get(task);
    if (rows) rows.push(row);
    else byTask.set(task, [row]);
  };
  for await (const chunk of longJsonl) {
    const lines = (rest + (typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }))).split("\n");
    rest = lines.pop() ?? "";
    lines.forEach(take);
  }
  take(rest);
  return [...byTask].map(([task, rows]) => ({ task, file: `${task.toLowerCase().replace(/_/g, "-")}.parquet`, rows: rows.length, buffer: parquetOfRows(rows) }));
}
