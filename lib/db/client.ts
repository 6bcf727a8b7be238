/**
 * The one Prisma client of the process, through the pg driver adapter (no native engine), and
 * `sql` for the few hot statements on the same connection pool. All data access goes through
 * lib/data/*, which import `db` and `sql` from here.
 */
import { availableParallelism } from "node:os";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { type Prisma, PrismaClient } from "@/lib/generated/prisma/client";

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

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1, got "${raw}"`);
  return value;
}

/**
 * Pool size and connection wait from the settings, else from the machine: the database does
 * its work on the same cores, so more connections than about four per core only queue inside
 * PostgreSQL instead of in the pool, where a wait can end in a clear 503.
 */
export function poolSettings(cores = availableParallelism()): PoolSettings {
  return { size: positiveInteger("CRJUDGE_DB_POOL_SIZE", Math.max(4, 4 * cores)), waitMs: positiveInteger("CRJUDGE_DB_POOL_WAIT_MS", 5000) };
}

function createPool(url: string, settings: PoolSettings): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: settings.size, connectionTimeoutMillis: settings.waitMs });
  // An idle connection dies with its server (a restart, a kill): the pool drops it and opens a new
  // one on the next query; without a listener the error would end the process.
  pool.on("error", (error) => console.error(`database connection lost: ${error.message}`));
  return pool;
}

/** The pg pool under each client createClient made (rawRows sends statements straight to it). */
const poolOf = new WeakMap<PrismaClient, pg.Pool>();

export function createClient(url: string, settings: PoolSettings = poolSettings(), pool: pg.Pool = createPool(url, settings)): PrismaClient {
  const client = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    transactionOptions: { maxWait: settings.waitMs },
  });
  poolOf.set(client, pool);
  return client;
}

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the product with `npm start`, which provides the embedded database.");
  return url;
}

const processWide = globalThis as unknown as { crjudgeDb?: { prisma: PrismaClient; pool: pg.Pool } };

/**
 * Created on first use so that importing a module never needs a database; created again after
 * `db.$disconnect()` (which ends the pool), as Prisma itself reconnects.
 */
function connection(): { prisma: PrismaClient; pool: pg.Pool } {
  if (!processWide.crjudgeDb || processWide.crjudgeDb.pool.ended) {
    const settings = poolSettings();
    const pool = createPool(databaseUrl(), settings);
    processWide.crjudgeDb = { pool, prisma: createClient(databaseUrl(), settings, pool) };
  }
  return processWide.crjudgeDb;
}

export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const { prisma } = connection();
    const value = Reflect.get(prisma, property) as unknown;
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(prisma) : value;
  },
});

/**
 * One statement straight through pg, for the paths every request takes (the session check, the
 * common save): measured on this machine kind, a Prisma `findUnique` costs about 1.8 ms of CPU
 * and `$queryRawUnsafe` 0.7 ms, against 0.3 ms here. A `name` makes it a prepared statement,
 * planned once per connection.
 */
export async function sql<Row>(statement: { text: string; name?: string }, values: readonly unknown[]): Promise<Row[]> {
  const result = await connection().pool.query({ ...statement, values: [...values] });
  return result.rows as Row[];
}

/**
 * A `Prisma.sql` statement straight through pg on `client`'s pool, skipping Prisma's query
 * compiler (about 40 ms of CPU per metric chunk of 1,000 reviews: scripts/bench/jobs.ts).
 * pg's own type parsing applies: text[] and json come back parsed, bigint as a string.
 */
export async function rawRows<Row>(client: PrismaClient, statement: Prisma.Sql): Promise<Row[]> {
  const pool = client === db ? connection().pool : poolOf.get(client);
  if (!pool) throw new Error("rawRows needs a client made by createClient (or db)");
  const result = await pool.query({ text: statement.text, values: statement.values });
  return result.rows as Row[];
}

export type { PrismaClient };
export { Prisma } from "@/lib/generated/prisma/client";
