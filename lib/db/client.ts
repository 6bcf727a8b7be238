/**
 * The one Prisma client of the process, through the pg driver adapter (no native engine).
 * All data access goes through lib/data/*, which import `db` from here.
 */
import { availableParallelism } from "node:os";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";

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

export function createClient(url: string, pool: PoolSettings = poolSettings()): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: url, max: pool.size, connectionTimeoutMillis: pool.waitMs }),
    transactionOptions: { maxWait: pool.waitMs },
  });
}

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the product with `npm start`, which provides the embedded database.");
  return url;
}

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

/** Lazily created so that importing a module never needs a database. */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    globalForPrisma.prisma ??= createClient(databaseUrl());
    const value = Reflect.get(globalForPrisma.prisma, property) as unknown;
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(globalForPrisma.prisma) : value;
  },
});

export type { PrismaClient };
export { Prisma } from "@/lib/generated/prisma/client";
