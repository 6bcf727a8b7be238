/**
 * Table statistics after a large import. The dashboards' and exports' reads are planned on
 * PostgreSQL's statistics, which autovacuum gathers only up to a minute (its naptime) after the
 * rows were committed: until then, reading 100,000 fresh ratings took 386-394 ms instead of
 * 211-213 ms (scripts/bench/analysis.ts). So the import analyzes, right after its commit, every
 * table it changed by more than autovacuum's own threshold (PostgreSQL's defaults: 50 rows and
 * 10 % of the table), which is the work autovacuum would have done next anyway.
 */
import { Prisma, rawRows, type PrismaClient } from "@/lib/db/client";
import { type ImportCounts, TABLES } from "./plan";
import { tableName } from "./write-bundle";

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, PostgreSQL's defaults. */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

/** Whether `changed` rows of a table of `rows` rows (-1: never analyzed) would make autovacuum analyze it. */
export const needsAnalyze = (changed: number, rows: number) => changed > ANALYZE_THRESHOLD + ANALYZE_SCALE_FACTOR * Math.max(rows, 0);

/** The tables (by name, in the import's order) whose rows the import created or updated, with how many. */
function changedRows(counts: ImportCounts): Map<string, number> {
  const changed = new Map<string, number>();
  for (const table of TABLES) changed.set(tableName(table), counts[table].created + counts[table].updated);
  return changed;
}

/**
 * How long ANALYZE waits for a table's lock: it waits behind a VACUUM or ANALYZE running on the
 * table (autovacuum yields to it within a second, an anti-wraparound vacuum or a lead's VACUUM do not).
 */
const LOCK_TIMEOUT = "2s";

/**
 * Analyzes the tables `counts` changed past autovacuum's threshold, one at a time; returns those
 * analyzed. Run after the commit (ANALYZE takes no lock that blocks reads or writes), so it never
 * throws: a table it cannot analyze (locked past LOCK_TIMEOUT, a database user not allowed to)
 * is left to autovacuum, and the committed import stays as it is.
 */
export async function analyzeChangedTables(client: PrismaClient, counts: ImportCounts): Promise<string[]> {
  const changed = changedRows(counts);
  let sizes: { name: string; rows: number }[];
  try {
    sizes = await rawRows<{ name: string; rows: number }>(
      client,
      Prisma.sql`SELECT c.relname AS name, c.reltuples::float8 AS rows FROM pg_class c WHERE c.relname = ANY(${[...changed.keys()]}::text[]) AND c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace`,
    );
  } catch {
    return [];
  }
  const rowsOf = new Map(sizes.map((t) => [t.name, t.rows]));
  const analyzed: string[] = [];
  for (const [name, count] of changed) {
    if (!rowsOf.has(name) || !needsAnalyze(count, rowsOf.get(name)!)) continue;
    try {
      // `name` is one of the import's tables (write-bundle.ts), quoted as an identifier.
      await client.$transaction([client.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`), client.$executeRawUnsafe(`ANALYZE "${name}"`)]);
      analyzed.push(name);
    } catch {
      // Left to autovacuum.
    }
  }
  return analyzed;
}
