/**
 * The process's pg pool and `sql` for the few hot statements, without Prisma: loading the
 * Prisma client costs about 0.3 s of CPU, which a CLI command that only needs a statement or
 * two (db-status) does not pay. lib/db/client.ts puts the Prisma client on this same pool.
 */
import "server-only";
import { availableParallelism } from "node:os";
import pg from "pg";
import { databaseUrl, env } from "@/lib/env";

export interface PoolSettings {
  /** Connections per process (CRJUDGE_DB_POOL_SIZE). */
  size: number;
  /**
   * How long a query or transaction waits for a free connection before giving up
   * (CRJUDGE_DB_POOL_WAIT_MS). It includes opening a new connection, which on a loaded machine
   * (password hashing of SCRAM sign-in) took over 2 s, hence the default of 5 s.
   */
  waitMs: number;
}

/**
 * Pool size and connection wait from the settings, else from the machine: the database does
 * its work on the same cores, so more connections than about four per core only queue inside
 * PostgreSQL instead of in the pool, where a wait can end in a clear 503.
 */
export function poolSettings(cores = availableParallelism()): PoolSettings {
  return { size: env().CRJUDGE_DB_POOL_SIZE ?? Math.max(4, 4 * cores), waitMs: env().CRJUDGE_DB_POOL_WAIT_MS };
}

/**
 * The connections a pool has handed out (to a statement or a transaction) and not taken back yet,
 * kept on the pool itself: the process's pool is shared through globalThis, and a module-level map
 * would be empty in every other copy of this module (another Next.js bundle, another test file).
 */
const CHECKED_OUT = Symbol.for("crjudge.checkedOutConnections");
type TrackedPool = pg.Pool & { [CHECKED_OUT]?: Set<pg.PoolClient> };

/**
 * The connection of `pool` whose server process is `backendPid`, while it is checked out: how
 * lib/db/client.ts finds the connection under a Prisma interactive transaction.
 */
export function checkedOutConnection(pool: pg.Pool, backendPid: number): pg.PoolClient | undefined {
  // processID: the server process id pg reads at connection (BackendKeyData); absent from @types/pg.
  return [...((pool as TrackedPool)[CHECKED_OUT] ?? [])].find((connection) => (connection as pg.PoolClient & { processID?: number }).processID === backendPid);
}

/**
 * `timestamp(3)` columns hold UTC (as Prisma writes them); pg's default parser reads them as local
 * time. Statements sent straight through pg (sql, rawRows, an import's snapshot) read them as
 * Prisma does; Prisma's adapter passes its own parsers with every query.
 */
const TIMESTAMP_OID = 1114;
const utcTimestamps: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID ? (value: string) => new Date(`${value.replace(" ", "T")}Z`) : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

export function createPool(url: string, settings: PoolSettings): pg.Pool {
  const pool: TrackedPool = new pg.Pool({ connectionString: url, max: settings.size, connectionTimeoutMillis: settings.waitMs, types: utcTimestamps });
  const out = (pool[CHECKED_OUT] = new Set<pg.PoolClient>());
  pool.on("acquire", (connection) => out.add(connection));
  pool.on("release", (_error, connection) => out.delete(connection));
  // An idle connection dies with its server (a restart, a kill): the pool drops it and opens a new
  // one on the next query; without a listener the error would end the process. Once the pool is
  // ending, its connections close without waiting for it, and a server stopped right after (the
  // CLI's own embedded one) ends them with an error that is expected.
  pool.on("error", (error) => {
    if (!pool.ending) console.error(`database connection lost: ${error.message}`);
  });
  return pool;
}

/** The process-wide pool, and the Prisma client lib/db/client.ts made on it (which ends the pool when disconnected). */
export interface ProcessConnection {
  pool: pg.Pool;
  settings: PoolSettings;
  prisma?: { $disconnect(): Promise<void> };
}

const processWide = globalThis as unknown as { crjudgeDb?: ProcessConnection };

/**
 * Created on first use so that importing a module never needs a database; created again after
 * the pool was ended (`db.$disconnect()` ends it), as Prisma itself reconnects.
 */
export function processConnection(): ProcessConnection {
  if (!processWide.crjudgeDb || processWide.crjudgeDb.pool.ended) {
    const settings = poolSettings();
    processWide.crjudgeDb = { pool: createPool(databaseUrl(), settings), settings };
  }
  return processWide.crjudgeDb;
}

/** Ends the process's connections, if any were opened (through Prisma when it was loaded, as it owns the pool then). */
export async function closeConnections(): Promise<void> {
  const connection = processWide.crjudgeDb;
  if (!connection || connection.pool.ended) return;
  if (connection.prisma) await connection.prisma.$disconnect();
  else await connection.pool.end();
}

/**
 * One statement straight through pg, for the paths every request takes (the session check, the
 * common save): measured on this machine kind, a Prisma `findUnique` costs about 1.8 ms of CPU
 * and `$queryRawUnsafe` 0.7 ms, against 0.3 ms here. A `name` makes it a prepared statement,
 * planned once per connection.
 */
export async function sql<Row>(statement: { text: string; name?: string }, values: readonly unknown[]): Promise<Row[]> {
  const result = await processConnection().pool.query({ ...statement, values: [...values] });
  return result.rows as Row[];
}
