/**
 * Applies the committed SQL migrations in prisma/migrations, in name order, each in its own
 * transaction. Prisma's WebAssembly migrate engine splits files on ";" and so cannot apply
 * PL/pgSQL bodies (our append-only history trigger); this runner sends each file whole and
 * records it in Prisma's own `_prisma_migrations` table, so `prisma migrate status` agrees.
 */
import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { SetupError } from "@/lib/errors";

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma", "migrations");

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** An arbitrary constant naming the advisory lock, so concurrent starts migrate once. */
export const MIGRATION_LOCK_KEY = 72707301;

/** The applied migrations' checksums by name; undefined before the first migration made the table. */
async function appliedChecksums(client: pg.Client): Promise<Map<string, string> | undefined> {
  // Asked first, not caught: a query on the missing table would print an ERROR in the server's log at a first start.
  const table = await client.query<{ exists: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`);
  if (!table.rows[0].exists) return undefined;
  const done = await client.query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return new Map(done.rows.map((row) => [row.migration_name, row.checksum]));
}

/** Applies pending migrations; returns the names applied. Refuses if an applied file was edited. */
export async function migrate(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = readMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // What every start after the first finds (the product's start or another command migrated):
    // each file applied and unchanged. One statement, without waiting for the lock.
    const before = await appliedChecksums(client);
    if (migrations.every((migration) => before?.get(migration.name) === migration.checksum)) return [];
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      return await applyPending(client, migrations);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}

/** Under the lock: the migrations not applied yet, each in its own transaction. */
async function applyPending(client: pg.Client, migrations: Migration[]): Promise<string[]> {
  await client.query(CREATE_TABLE);
  const applied = (await appliedChecksums(client))!;
  const ran: string[] = [];
  for (const migration of migrations) {
    const checksum = applied.get(migration.name);
    if (checksum !== undefined) {
      if (checksum !== migration.checksum) {
        throw new SetupError(`Migration ${migration.name} was edited after it was applied (checksum differs); add a new migration instead.`);
      }
      continue;
    }
    await client.query("BEGIN");
    try {
      await client.query(migration.sql);
      await client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw new SetupError(`Migration ${migration.name} failed: ${(error as Error).message}`);
    }
    ran.push(migration.name);
  }
  return ran;
}
