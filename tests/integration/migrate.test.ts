import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { migrate, MIGRATION_LOCK_KEY, MIGRATIONS_DIR, readMigrations } from "@/lib/db/migrate";

// A database of its own on the test server: migrations recorded here stay out of the shared one.
const name = `crjudge_migrate_${Date.now()}`;
const adminUrl = inject("databaseUrl").replace(/\/[^/?]+(\?|$)/, "/postgres$1");
const url = inject("databaseUrl").replace(/\/[^/?]+(\?|$)/, `/${name}$1`);
const folder = mkdtempSync(path.join(tmpdir(), "crjudge-migrations-"));

async function onAdmin(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

beforeAll(() => onAdmin(`CREATE DATABASE "${name}"`));
afterAll(async () => {
  await onAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  rmSync(folder, { recursive: true, force: true });
});

test("migrate applies every migration once; an up-to-date database is checked without waiting for the migration lock; an edited file is refused and a new one applied", async () => {
  const all = readMigrations().map((m) => m.name);
  expect(await migrate(url)).toEqual(all);

  // Another start holding the lock (migrating) does not hold up one that finds nothing to do.
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    await holder.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    expect(await migrate(url)).toEqual([]);
  } finally {
    await holder.end();
  }

  const edited = path.join(folder, "edited");
  cpSync(MIGRATIONS_DIR, edited, { recursive: true });
  appendFileSync(path.join(edited, all[0], "migration.sql"), "\n-- edited\n");
  await expect(migrate(url, edited)).rejects.toThrow(`Migration ${all[0]} was edited after it was applied`);

  const added = path.join(folder, "added");
  cpSync(MIGRATIONS_DIR, added, { recursive: true });
  mkdirSync(path.join(added, "99990101000000_test_table"));
  writeFileSync(path.join(added, "99990101000000_test_table", "migration.sql"), 'CREATE TABLE "MigrateTest" (id int);');
  expect(await migrate(url, added)).toEqual(["99990101000000_test_table"]);
  expect(await migrate(url, added)).toEqual([]);
});
