/**
 * The one Prisma client of the process, through the pg driver adapter (no native engine).
 * All data access goes through lib/data/*, which import `db` from here.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";

export function createClient(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
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
