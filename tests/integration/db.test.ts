import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { describe, expect, inject, test } from "vitest";
import { intArrayLiteral, textArrayLiteral } from "@/lib/db/array-literal";
import { createClient, pipelinedArrays, poolSettings, Prisma, rawArrays, rawRows, transactionConnection } from "@/lib/db/client";
import { createPool } from "@/lib/db/connection";
import { readMigrations } from "@/lib/db/migrate";
import { bundledCli, cli } from "./cli";

describe("database", () => {
  const db = createClient(inject("databaseUrl"));

  test("history is append-only", async () => {
    const row = await db.annotationHistory.create({
      data: { kind: "CLAIM_JUDGEMENT", annotationId: "x", action: "CREATE", newValue: { code: 1 } },
    });
    await expect(db.annotationHistory.update({ where: { id: row.id }, data: { annotationId: "y" } })).rejects.toThrow(/append-only/);
    await expect(db.annotationHistory.delete({ where: { id: row.id } })).rejects.toThrow(/append-only/);
    expect(await db.annotationHistory.count({ where: { id: row.id } })).toBe(1);
  });

  test("statements straight through pg read timestamps as Prisma does (UTC), whatever the process's time zone", async () => {
    const study = await db.study.create({ data: { slug: `tz-${Date.now()}`, name: "tz" } });
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      const [row] = await rawRows<{ createdAt: Date }>(db, Prisma.sql`SELECT "createdAt" FROM "Study" WHERE id = ${study.id}`);
      expect(row.createdAt.toISOString()).toBe(study.createdAt.toISOString());
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
      await db.study.delete({ where: { id: study.id } });
    }
  });

  test("pipelined statements answer in order, each row as rawArrays reads it; a failure is thrown and its connection closed, the pool still answering", async () => {
    const pool = createPool(inject("databaseUrl"), poolSettings());
    const client = createClient("", poolSettings(), pool);
    try {
      const statements = [Prisma.sql`SELECT g, g * 2, 'x' || g FROM generate_series(1, 3) g`, Prisma.sql`SELECT ${"a,\"b"}::text, NULL::int`, Prisma.sql`SELECT 1 WHERE false`];
      const one = [];
      for (const s of statements) one.push(await rawArrays(client, s));
      expect(await pipelinedArrays(client, statements)).toEqual(one);
      expect(one).toEqual([[[1, 2, "x1"], [2, 4, "x2"], [3, 6, "x3"]], [['a,"b', null]], []]);
      expect(pool.totalCount).toBe(1);

      const after = Prisma.sql`SELECT pg_sleep(0.05), 7`;
      await expect(pipelinedArrays(client, [Prisma.sql`SELECT 1/0`, after])).rejects.toThrow(/division by zero/);
      expect([pool.totalCount, pool.idleCount]).toEqual([0, 0]);
      expect(await rawArrays(client, after)).toEqual([["", 7]]);
    } finally {
      await client.$disconnect();
    }
  });

  test("array literals read back in PostgreSQL as the arrays they were made of, whatever their texts hold", async () => {
    const texts = ["", "plain", 'a "quoted" word', "back\\slash \\\"", "{braces},commas", "NULL", " spaced ", "ünïcode ✓", "new\nline\ttab", null];
    const numbers = [0, 1, -7, 2147483647, null, 42];
    const [row] = await rawRows<{ texts: (string | null)[]; numbers: (number | null)[] }>(db, Prisma.sql`SELECT ${textArrayLiteral(texts)}::text[] AS texts, ${intArrayLiteral(numbers)}::int[] AS numbers`);
    expect(row).toEqual({ texts, numbers });
    const [empty] = await rawRows<{ texts: string[]; numbers: number[] }>(db, Prisma.sql`SELECT ${textArrayLiteral([])}::text[] AS texts, ${intArrayLiteral([])}::int[] AS numbers`);
    expect(empty).toEqual({ texts: [], numbers: [] });
  });

  test("transactionConnection is the connection of the interactive transaction: what is sent on it commits or rolls back with it", async () => {
    const kept = `tx-kept-${Date.now()}`;
    const dropped = `tx-dropped-${Date.now()}`;
    const insert = (slug: string) => `INSERT INTO "Study" (id, slug, name, "updatedAt") VALUES ('${slug}', '${slug}', '${slug}', now())`;
    await db.$transaction(async (tx) => {
      await (await transactionConnection(db, tx)).query(insert(kept));
      // Seen by the transaction's own statements before the commit, not by others.
      expect(await tx.study.count({ where: { slug: kept } })).toBe(1);
      expect(await db.study.count({ where: { slug: kept } })).toBe(0);
    });
    await expect(
      db.$transaction(async (tx) => {
        await (await transactionConnection(db, tx)).query(insert(dropped));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await db.study.count({ where: { slug: { in: [kept, dropped] } } })).toBe(1);
  });

  test("a transaction's statements go one at a time on its connection: the INSERTs of a createMany Prisma splits at the bind-parameter limit never overlap there (pg 9 refuses a statement sent while another runs)", async () => {
    const pool = createPool(inject("databaseUrl"), poolSettings());
    const sent: { text: string; whileAnotherRan: boolean }[] = [];
    pool.on("connect", (connection) => {
      const query = connection.query.bind(connection) as (...args: unknown[]) => Promise<unknown>;
      let running = 0;
      // Prisma's adapter sends a statement as one config and awaits its promise; the pool's own query passes a callback.
      connection.query = ((...args: unknown[]) => {
        if (args.length > 1) return query(...args);
        sent.push({ text: (args[0] as pg.QueryConfig).text.slice(0, 40), whileAnotherRan: running > 0 });
        running++;
        return query(...args).finally(() => running--);
      }) as typeof connection.query;
    });
    const client = createClient("", poolSettings(), pool);
    const study = await db.study.create({ data: { slug: `split-${Date.now()}`, name: "split" } });
    try {
      await client.codeChange.createMany({ data: Array.from({ length: 12_000 }, (_, i) => ({ studyId: study.id, externalId: `c${i}`, language: "java", diff: "", position: i })) });
      expect(sent.filter((s) => s.text.startsWith("INSERT")).length).toBeGreaterThan(1);
      expect(sent.filter((s) => s.whileAnotherRan)).toEqual([]);
      expect(await db.codeChange.count({ where: { studyId: study.id } })).toBe(12_000);
    } finally {
      await client.$disconnect();
      await db.study.delete({ where: { id: study.id } });
    }
  });

  test.each([
    ["sources", cli],
    ["bundle", bundledCli],
  ])("`cli db-status` from the %s lists the applied migrations and counts the main tables (straight through pg, without Prisma)", async (_from, run) => {
    const { code, stdout } = await run("db-status");
    expect(code).toBe(0);
    const status = JSON.parse(stdout) as { migrations: { applied: string[]; pending: string[] }; counts: Record<string, number> };
    expect(status.migrations).toEqual({ applied: readMigrations().map((m) => m.name), pending: [] });
    expect(status.counts).toEqual({
      accounts: await db.account.count(),
      studies: await db.study.count(),
      codeChanges: await db.codeChange.count(),
      reviews: await db.review.count(),
      historyRows: await db.annotationHistory.count(),
    });
  });

  test("`npm run db:migrate` applies every migration to a new database in DATABASE_URL, then none", async () => {
    const name = `migrate_${Date.now()}`;
    const admin = new pg.Client({ connectionString: inject("databaseUrl") });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = new URL(inject("databaseUrl"));
      url.pathname = `/${name}`;
      const migrate = async () => JSON.parse((await promisify(execFile)("npm", ["run", "-s", "db:migrate"], { env: { ...process.env, DATABASE_URL: url.href } })).stdout) as { database: string; applied: string[] };
      const first = await migrate();
      expect(first.database).toBe(`${url.hostname}:${url.port}/${name}`);
      expect(first.applied).toEqual(readMigrations().map((m) => m.name));
      expect((await migrate()).applied).toEqual([]);
    } finally {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  test("the bundle (its packages bundled in) runs a command through Prisma, and an unknown command or none lists the commands", async () => {
    const email = `bundle-${Date.now()}@test.local`;
    await db.account.create({ data: { email, name: "bundle" } });
    const accounts = await bundledCli("accounts");
    expect(accounts.code).toBe(0);
    const listed = (JSON.parse(accounts.stdout) as { email: string }[]).map((account) => account.email).sort();
    expect(listed).toContain(email);
    expect(listed).toEqual((await db.account.findMany({ select: { email: true } })).map((account) => account.email).sort());

    const unknown = await bundledCli("no-such-command");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "no-such-command"');
    expect(unknown.stderr).toContain("  db-status");
    // No command: the same listing, exit code 0.
    const none = await bundledCli();
    expect(none.code).toBe(0);
    expect(none.stderr).toContain("  db-status");
  });
});
