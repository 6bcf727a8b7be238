/**
 * Bulk inserts for imports through PostgreSQL's `COPY … FROM STDIN` (text format; the COPY
 * itself is lib/data/import-writer.ts copyRows), on the
 * connection of the import's transaction (lib/db/client.ts transactionConnection), so the rows
 * are written and rolled back with everything else the import does. One COPY per table streams
 * every row: no statement per batch, no array parameters to build and bind. On 100,000 reviews
 * (440,000 rows, scripts/bench/import.ts) the import's own CPU time fell from about 20 s to
 * 10-12 s against INSERT … SELECT FROM unnest(arrays) per 5,000 rows (itself about 8 times
 * faster than Prisma's createMany); PostgreSQL's part (about 17 s of CPU, mostly foreign-key
 * checks and index updates) is what remains: about 6.6 s since the rows' ids increase
 * (row-ids.ts), half of it the foreign-key checks, which COPY cannot skip.
 *
 * Column names and types mirror prisma/schema.prisma: a table is named as its model's @@map (or
 * the model), and a field the schema maps (@map) names its column in `mapped`; the integration
 * tests write every table through here.
 */

/** PostgreSQL type of a column: how its values are written (enums as their text, which COPY reads into the enum). */
export type ColumnType = "text" | "integer" | "boolean" | "jsonb" | "timestamp(3)" | { enum: string };

export interface BulkTable<Row> {
  /** Table name (the model's @@map, or the model). */
  name: string;
  /** The fields written, each with its column's type; the others take their defaults. */
  columns: { [K in keyof Row]?: ColumnType };
  /** The column of each field the schema stores under another name (@map). */
  mapped?: { [K in keyof Row]?: string };
}

/** COPY text sent per write: large enough to amortize the stream, small enough to keep memory flat. */
const CHUNK_CHARS = 1 << 20;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const DELIMITER = /[\\\n\r\t]/;
const DELIMITERS = /[\\\n\r\t]/g;

/** A value in COPY's text format: `\N` for null, and backslash, newline, carriage return and tab escaped (the format's delimiters). */
export function copyValue(value: unknown, type: ColumnType): string {
  if (value === null || value === undefined) return "\\N";
  const text = type === "jsonb" ? JSON.stringify(value) : value instanceof Date ? value.toISOString() : typeof value === "boolean" ? (value ? "t" : "f") : String(value);
  return DELIMITER.test(text) ? text.replace(DELIMITERS, (c) => ESCAPES[c]) : text;
}

/** The `COPY table (columns) FROM STDIN` statement of a table. */
export function copyStatement<Row>(table: BulkTable<Row>): string {
  const mapped: Record<string, string | undefined> = table.mapped ?? {};
  return `COPY ${quote(table.name)} (${Object.keys(table.columns).map((name) => quote(mapped[name] ?? name)).join(", ")}) FROM STDIN`;
}

/**
 * copyValue for one column of many rows. The rows of an import mostly share one time (the
 * import's), so a time's text is made once, not per row: toISOString was a third of the
 * encoding's CPU time on the 100,000-review bench.
 */
function columnValues(type: ColumnType): (value: unknown) => string {
  let lastTime = NaN;
  let lastText = "";
  return (value) => {
    if (!(value instanceof Date) || type === "jsonb") return copyValue(value, type);
    if (value.getTime() !== lastTime) {
      lastText = copyValue(value, type);
      lastTime = value.getTime();
    }
    return lastText;
  };
}

/** The rows as COPY text (a tab between values, a line per row) in chunks of about CHUNK_CHARS; `onRows` hears how many rows each chunk holds. */
export function* copyText<Row extends object>(table: BulkTable<Row>, rows: readonly Row[], onRows?: (count: number) => void): Generator<string> {
  const names = Object.keys(table.columns) as (keyof Row & string)[];
  const values = Object.values(table.columns).map((type) => columnValues(type as ColumnType));
  const last = names.length - 1;
  let chunk = "";
  let count = 0;
  for (const row of rows) {
    for (let i = 0; i < last; i++) chunk += values[i](row[names[i]]) + "\t";
    chunk += values[last](row[names[last]]) + "\n";
    count++;
    if (chunk.length >= CHUNK_CHARS) {
      onRows?.(count);
      yield chunk;
      chunk = "";
      count = 0;
    }
  }
  if (count > 0) {
    onRows?.(count);
    yield chunk;
  }
}
