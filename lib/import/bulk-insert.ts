/**
 * Batched INSERTs for imports: one statement per batch, each column sent as one array
 * parameter and expanded with `unnest`, so a batch costs one round trip and a handful of
 * parameters. Measured on 100,000 reviews it is about 8 times faster than Prisma's createMany
 * (2.7 s against 21 s, scripts/bench/import.ts), which builds one parameter per cell.
 *
 * Column names and types mirror prisma/schema.prisma (table = model name, as the schema maps
 * no names); the integration tests write every table through here.
 */
import type { Prisma } from "@/lib/db/client";

/** PostgreSQL type of a column; enums are sent as text and cast. */
export type ColumnType = "text" | "integer" | "boolean" | "jsonb" | "timestamp(3)" | { enum: string };

export interface BulkTable<Row> {
  /** Table (model) name. */
  name: string;
  /** The columns written, each with its type; the others take their defaults. */
  columns: { [K in keyof Row]?: ColumnType };
}

/** Rows per statement, and the text per statement above which a batch is cut (big diffs and files). */
const MAX_ROWS = 5000;
const MAX_CHARS = 16_000_000;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function parameterValue(value: unknown, type: ColumnType): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (type === "jsonb") return JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  return value as string | number | boolean;
}

/** The INSERT … SELECT … FROM unnest(…) statement of a table. */
export function insertStatement<Row>(table: BulkTable<Row>): string {
  const columns = Object.entries(table.columns) as [string, ColumnType][];
  const names = columns.map(([name]) => quote(name)).join(", ");
  const arrays = columns.map(([, type], i) => `$${i + 1}::${typeof type === "object" ? "text" : type}[]`).join(", ");
  const values = columns.map(([name, type]) => (typeof type === "object" ? `u.${quote(name)}::${quote(type.enum)}` : `u.${quote(name)}`)).join(", ");
  return `INSERT INTO ${quote(table.name)} (${names}) SELECT ${values} FROM unnest(${arrays}) AS u(${names})`;
}

function textSize(row: object): number {
  let size = 0;
  for (const value of Object.values(row)) size += typeof value === "string" ? value.length : value !== null && typeof value === "object" && !(value instanceof Date) ? JSON.stringify(value).length : 8;
  return size;
}

/** Consecutive batches of at most MAX_ROWS rows and (unless one row exceeds it) MAX_CHARS of text. */
export function* batches<Row extends object>(rows: readonly Row[]): Generator<Row[]> {
  let batch: Row[] = [];
  let size = 0;
  for (const row of rows) {
    const rowSize = textSize(row);
    if (batch.length > 0 && (batch.length >= MAX_ROWS || size + rowSize > MAX_CHARS)) {
      yield batch;
      batch = [];
      size = 0;
    }
    batch.push(row);
    size += rowSize;
  }
  if (batch.length > 0) yield batch;
}

/** Inserts one batch of rows. */
export async function bulkInsert<Row extends object>(tx: Prisma.TransactionClient, table: BulkTable<Row>, rows: readonly Row[]): Promise<void> {
  const columns = Object.entries(table.columns) as [keyof Row & string, ColumnType][];
  const parameters = columns.map(([name, type]) => rows.map((row) => parameterValue(row[name], type)));
  await tx.$executeRawUnsafe(insertStatement(table), ...parameters);
}
