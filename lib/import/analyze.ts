/**
 * Table statistics after a large import. The dashboards' and exports' reads are planned on
 * PostgreSQL's statistics, which autovacuum gathers only up to a minute (its naptime) after the
 * rows were committed: until then, reading 100,000 fresh ratings took 386-394 ms instead of
 * 211-213 ms (scripts/bench/analysis.ts). So the import analyzes, right after its commit, every
 * table it changed by more than autovacuum's own threshold (PostgreSQL's defaults: 50 rows and
 * 10 % of the table), which is the work autovacuum would have done next anyway.
 */
import { Prisma, rawRows, type PrismaClient } from "@/lib/db/client";
import type { ImportCounts } from "./index";
import { TABLES } from "./plan";
import { tableName } from "./write-bundle";

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, PostgreSQL's defaults. */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

/** Whether `changed` rows of a table of `rows` rows (-1: never analyzed) would make autovacuum analyze it. */
export const needsAnalyze = (changed: number, rows: number) => changed > ANALYZE_THRESHOLD + ANALYZE_SCALE_FACTOR * Math.max(rows, 0);

/** The tables (by name) whose rows the import created or updated, with how many. */
function changedRows(counts: ImportCounts): Map<string, number> {
  const changed = new Map<string, number>();
  for (const table of TABLES) changed.set(tableName(table), counts[table].created + counts[table].updated);
  return changed;
}

/**
 * Analyzes the tables `counts` changed past autovacuum's threshold; returns their names. Run after
 * the commit (ANALYZE takes no lock that blocks reads or writes), so it never throws: a failure (a
 * database user not allowed to analyze) leaves the committed import as it is, and autovacuum
 * gathers the statistics later.
 */
export async function analyzeChangedTables(client: PrismaClient, counts: ImportCounts): Promise<string[]> {
  const changed = changedRows(counts);
  try {
    const sizes = await rawRows<{ name: string; rows: number }>(
      client,
      Prisma.sql`SELECT c.relname AS name, c.reltuples::float8 AS rows FROM pg_class c WHERE c.relname = ANY(${[...changed.keys()]}::text[]) AND c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace`,
    );
    const analyzed = sizes.filter((t) => needsAnalyze(changed.get(t.name) ?? 0, t.rows)).map((t) => t.name);
    // The names are the import's tables (write-bundle.ts), quoted as identifiers.
    if (analyzed.length > 0) await client.$executeRawUnsafe(`ANALYZE ${analyzed.map((name) => `"${name}"`).join(", ")}`);
    return analyzed;
  } catch {
    return [];
  }
}
