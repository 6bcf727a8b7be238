/**
 * The one Prisma client of the process, through the pg driver adapter (no native engine), on
 * the process's pool (lib/db/connection.ts, whose `sql` sends the few hot statements straight to
 * it). All data access goes through lib/data/*, which import `db` and `sql` from here.
 */
import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { type Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { checkedOutConnection, createPool, poolSettings, processConnection, type PoolSettings } from "./connection";
import { InvariantError } from "@/lib/errors";

export { poolSettings, sql, type PoolSettings } from "./connection";

/** The pg pool under each client createClient made (rawRows sends statements straight to it). */
const poolOf = new WeakMap<PrismaClient, pg.Pool>();

type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;

/**
 * An interactive transaction whose COMMIT or ROLLBACK fails gives its connection back, closed.
 * Prisma sends that statement and only then releases the connection; when the statement fails (the
 * server was killed or shut down under the transaction) it never did, so every transaction caught
 * by a restart kept a connection of the pool checked out until the process ended.
 */
function releasedWhenEndFails(transaction: Transaction): Transaction {
  // The pg connection the adapter's transaction runs on (PgQueryable's `client`).
  const connection = (transaction as unknown as { client: pg.PoolClient }).client;
  const release = connection.release.bind(connection);
  let released = false;
  // Released once: after a failed end here, and (should Prisma call it) again by the adapter.
  connection.release = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    release(error);
  };
  const executeRaw = transaction.executeRaw.bind(transaction);
  transaction.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (error) {
      if (query.sql === "COMMIT" || query.sql === "ROLLBACK") connection.release(error instanceof Error ? error : true);
      throw error;
    }
  };
  return transaction;
}

/**
 * A transaction's statements sent one at a time on its connection. Prisma's query interpreter sends
 * the statements of one operation together (a createMany is split at the bind-parameter limit and
 * its INSERTs sent at once); pg queued them on the one connection, which pg 8 warns is deprecated
 * and pg 9 refuses. They ran one after the other there anyway, so waiting here costs nothing.
 */
function oneStatementAtATime(transaction: Transaction): Transaction {
  let previous: Promise<unknown> = Promise.resolve();
  const after = <T>(run: () => Promise<T>): Promise<T> => {
    const result = previous.then(run);
    previous = result.catch(() => undefined);
    return result;
  };
  const queryRaw = transaction.queryRaw.bind(transaction);
  const executeRaw = transaction.executeRaw.bind(transaction);
  transaction.queryRaw = (query) => after(() => queryRaw(query));
  transaction.executeRaw = (query) => after(() => executeRaw(query));
  return transaction;
}

/** Prisma's pg adapter with releasedWhenEndFails and oneStatementAtATime on every interactive transaction. */
class PgAdapter extends PrismaPg {
  override async connect(): Promise<Adapter> {
    const adapter = await super.connect();
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => oneStatementAtATime(releasedWhenEndFails(await start(isolationLevel)));
    return adapter;
  }
}

export function createClient(url: string, settings: PoolSettings = poolSettings(), pool: pg.Pool = createPool(url, settings)): PrismaClient {
  const client = new PrismaClient({
    adapter: new PgAdapter(pool, { disposeExternalPool: true }),
    transactionOptions: { maxWait: settings.waitMs },
  });
  poolOf.set(client, pool);
  return client;
}

/** The Prisma client on the process's pool (lib/db/connection.ts), made on first use. */
function connection(): { prisma: PrismaClient; pool: pg.Pool } {
  const shared = processConnection();
  shared.prisma ??= createClient("", shared.settings, shared.pool);
  return { prisma: shared.prisma as PrismaClient, pool: shared.pool };
}

export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const { prisma } = connection();
    const value = Reflect.get(prisma, property) as unknown;
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(prisma) : value;
  },
});

/**
 * A `Prisma.sql` statement straight through pg on `client`'s pool, skipping Prisma's query
 * compiler (about 40 ms of CPU per metric chunk of 1,000 reviews: scripts/bench/jobs.ts).
 * pg's own type parsing applies: text[] and json come back parsed, bigint as a string.
 */
export async function rawRows<Row>(client: PrismaClient, statement: Prisma.Sql): Promise<Row[]> {
  const result = await poolUnder(client).query({ text: statement.text, values: statement.values });
  return result.rows as Row[];
}

/**
 * `rawRows` with each row as the array of its columns in the statement's order (pg's rowMode
 * "array"), for reads that make their rows' objects themselves: pg's own object per row (a copy of a
 * template, then a keyed store per column) was a sixth of the export's reading CPU.
 */
export async function rawArrays(client: PrismaClient, statement: Prisma.Sql): Promise<unknown[][]> {
  const result = await poolUnder(client).query({ text: statement.text, values: statement.values, rowMode: "array" });
  return result.rows as unknown[][];
}

/**
 * Statements sent together on one connection of `client`'s pool in pipeline mode, each row as an
 * array (rawArrays): all are written at once, and the server runs each while the results of those
 * before it are read, where one after the other it waited for each result to be read. The connection
 * is given back (closed, after a failure) once every statement has answered; the first failure is thrown then.
 */
export async function pipelinedArrays(client: PrismaClient, statements: readonly Prisma.Sql[]): Promise<unknown[][][]> {
  const connection = await poolUnder(client).connect();
  // pg's pipeline mode (a client option, ClientConfig.pipeline), set on this pooled connection only while these statements run.
  const mode = connection as pg.PoolClient & { pipeline: boolean };
  mode.pipeline = true;
  const results = await Promise.allSettled(statements.map((s) => connection.query({ text: s.text, values: s.values, rowMode: "array" })));
  mode.pipeline = false;
  const failed = results.find((r) => r.status === "rejected");
  // A connection whose statement failed is closed rather than given back (pg's release with an error).
  connection.release(failed && (failed.reason as Error));
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<pg.QueryArrayResult>).value.rows);
}

function poolUnder(client: PrismaClient): pg.Pool {
  const pool = client === db ? connection().pool : poolOf.get(client);
  if (!pool) throw new InvariantError("rawRows and transactionConnection need a client made by createClient (or db)");
  return pool;
}

/**
 * The pg connection that runs `tx`, an interactive transaction of `client`, for what Prisma
 * cannot send (COPY, lib/import/bulk-insert.ts): what is sent on it is part of the transaction,
 * committed or rolled back with it. Found by the server's process id among the connections the
 * pool has handed out. Use it only between statements of `tx`, never at the same time.
 */
export async function transactionConnection(client: PrismaClient, tx: Prisma.TransactionClient): Promise<pg.PoolClient> {
  const [{ pid }] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  const connection = checkedOutConnection(poolUnder(client), pid);
  if (!connection) throw new InvariantError(`no connection of the pool runs the transaction (server process ${pid})`);
  return connection;
}

export type { PrismaClient };
export { Prisma } from "@/lib/generated/prisma/client";
