/**
 * Table statistics after a large import. The dashboards' and exports' reads are planned on
 * PostgreSQL's statistics, which autovacuum gathers only up to a minute (its naptime) after the
 * rows were committed: until then, reading 100,000 fresh ratings took 386-394 ms instead of
 * 211-213 ms (scripts/bench/analysis.ts). So the import analyzes, right after its commit, every
 * table it changed by more than autovacuum's own threshold (PostgreSQL's defaults: 50 rows and
 * 10 % of the table), which is the work autovacuum would have done next anyway
 * (lib/data/import-writer.ts analyzeChangedTables).
 */

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, PostgreSQL's defaults. */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

/** Whether `changed` rows of a table of `rows` rows (-1: never analyzed) would make autovacuum analyze it. */
export const needsAnalyze = (changed: number, rows: number) => changed > ANALYZE_THRESHOLD + ANALYZE_SCALE_FACTOR * Math.max(rows, 0);
