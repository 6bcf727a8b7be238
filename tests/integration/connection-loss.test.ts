/**
 * A database connection lost under load answers 503 with Retry-After, never 500: PostgreSQL is
 * killed (kill -9, as a crash) or shut down fast (SIGINT, which ends every session with 57P01)
 * while Prisma statements, interactive transactions and raw pg statements run, and every error
 * they throw, during the loss and after it, goes through the one mapping (errorResponse). No
 * connection stays checked out of the pool afterwards (a transaction whose ROLLBACK failed kept its
 * own for good, lib/db/client.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test, vi } from "vitest";
import { createClient, poolSettings, rawRows, Prisma, type PrismaClient } from "@/lib/db/client";
import { createPool } from "@/lib/db/connection";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { errorResponse } from "@/lib/http/respond";

const DATABASE_TEXT = /prisma|invalid `|SELECT|INSERT|terminat|postmaster|ECONN|127\.0\.0\.1|57P0/i;

/** The errors statements of every kind throw while PostgreSQL stops by `signal`, and for a second after. */
async function errorsWhileStopping(db: PrismaClient, signal: NodeJS.Signals): Promise<unknown[]> {
  const errors: unknown[] = [];
  const kinds = [
    () => db.account.create({ data: { email: `loss-${Math.random()}@example.org`, name: "loss", role: "ANNOTATOR" } }),
    () =>
      db.$transaction(async (tx) => {
        await tx.account.count();
        await tx.$queryRaw`SELECT 1 AS one FROM pg_sleep(0.2)`;
        await tx.account.updateMany({ where: { email: "nobody@example.org" }, data: { name: "x" } });
      }),
    () => db.$queryRaw`SELECT 1 AS one FROM pg_sleep(0.2)`,
    () => rawRows(db, Prisma.sql`SELECT 1 AS one FROM pg_sleep(0.2)`),
  ];
  const [{ dir }] = await rawRows<{ dir: string }>(db, Prisma.sql`SELECT current_setting('data_directory') AS dir`);
  const postmaster = Number(readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
  let running = true;
  const loops = [...kinds, ...kinds].map(async (run) => {
    while (running) {
      await run().catch((error: unknown) => {
        errors.push(error);
        return new Promise((resolve) => setTimeout(resolve, 20));
      });
    }
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 400));
    process.kill(postmaster, signal);
    await new Promise((resolve) => setTimeout(resolve, 1500));
  } finally {
    running = false;
    await Promise.all(loops);
  }
  return errors;
}

describe("a lost database connection", () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases) await database.drop().catch(() => undefined);
  });

  test.each(["SIGKILL", "SIGINT"] as const)("PostgreSQL stopped by %s: every save and read answers 503 with Retry-After, never 500, and no connection is kept", async (signal) => {
    const database = await createTestDatabase(`crjudge_loss_${signal.toLowerCase()}`);
    databases.push(database);
    const pool = createPool(database.url, poolSettings());
    const db = createClient(database.url, poolSettings(), pool);
    await db.account.count();
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const errors = await errorsWhileStopping(db, signal);
      // Statements in flight when the server went away, not only connections refused after it.
      const inFlight = errors.filter((e) => !/Can't reach database server/.test(String((e as Error).message)));
      expect(inFlight.length, errors.map(String).join("\n")).toBeGreaterThan(0);
      const answers = new Map<string, number>();
      for (const error of errors) {
        const response = errorResponse(error);
        const text = await response.text();
        const key = `${response.status} ${response.headers.get("retry-after")} ${(error as Error).name}: ${String((error as Error).message).split("\n").filter(Boolean).at(-1)?.slice(0, 80)}`;
        answers.set(key, (answers.get(key) ?? 0) + 1);
        expect(text).not.toMatch(DATABASE_TEXT);
      }
      // 503 with a Retry-After (5 s for a lost connection; 1 s if the pool's wait ran out first on a busy machine).
      expect([...answers.keys()].filter((key) => !/^503 \d+ /.test(key)), [...answers.keys()].join("\n")).toEqual([]);
      expect(pool.totalCount - pool.idleCount, "connections still checked out").toBe(0);
    } finally {
      log.mockRestore();
      // Bounded: a pool with a connection still checked out never finishes ending.
      await Promise.race([db.$disconnect().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000))]);
    }
  });
});
