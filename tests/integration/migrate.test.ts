import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { migrate, MIGRATION_LOCK_KEY, MIGRATIONS_DIR, readMigrations } from "@/lib/db/migrate";
import { scratchDatabase } from "./scratch-database";

// A database of its own: migrations recorded here stay out of the shared one.
let database: Awaited<ReturnType<typeof scratchDatabase>>;
const folder = mkdtempSync(path.join(tmpdir(), "crjudge-migrations-"));

beforeAll(async () => {
  database = await scratchDatabase("crjudge_migrate");
});
afterAll(async () => {
  await database.drop();
  rmSync(folder, { recursive: true, force: true });
});

test("migrate applies every migration once; an up-to-date database is checked without waiting for the migration lock; an edited file is refused and a new one applied", async () => {
  const { url } = database;
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

test("renaming the history kind COMMENT_FILTER to COMMENT_FILTERING_LABEL keeps the stored history", async () => {
  const before = await scratchDatabase("crjudge_migrate_label");
  try {
    const earlier = path.join(folder, "before-label");
    cpSync(MIGRATIONS_DIR, earlier, { recursive: true });
    const rename = readMigrations().find((m) => m.name.endsWith("_comment_filtering_label"))!.name;
    rmSync(path.join(earlier, rename), { recursive: true });
    await migrate(before.url, earlier);
    const client = new pg.Client({ connectionString: before.url });
    await client.connect();
    try {
      await client.query(`INSERT INTO "AnnotationHistory" (kind, "annotationId", action) VALUES ('COMMENT_FILTER', 'label-1', 'CREATE')`);
      expect(await migrate(before.url)).toEqual([rename]);
      const { rows } = await client.query(`SELECT kind::text AS kind FROM "AnnotationHistory" WHERE "annotationId" = 'label-1'`);
      expect(rows).toEqual([{ kind: "COMMENT_FILTERING_LABEL" }]);
    } finally {
      await client.end();
    }
  } finally {
    await before.drop();
  }
});
