/**
 * Bulk operations for real crowds through the command line, against a real PostgreSQL:
 * `create-account --from-csv` (one transaction, per-line errors, generated passwords) and
 * `assign --annotators ... | --all-annotators` (the study's seeded assignment plan).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { cli } from "./cli";
import { afterAll, describe, expect, inject, test } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { createClient } from "@/lib/db/client";
import { createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

const db = createClient(inject("databaseUrl"));
const dir = mkdtempSync(path.join(tmpdir(), "crjudge-crowd-"));
const tag = `crowd${Date.now()}`;
let fx: AnnotationFixture | undefined;

afterAll(async () => {
  if (fx) await removeAnnotationFixture(db, fx);
  await db.account.deleteMany({ where: { email: { endsWith: `@${tag}.test` } } });
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
});


function csvFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe("create-account --from-csv", () => {
  test("a file with errors creates nothing and names every line and field", async () => {
    const file = csvFile(
      "bad.csv",
      [
        "email,role,name,password",
        `ok1@${tag}.test,annotator,Ok One,long-enough-1`,
        `not-an-email,annotator,,`,
        `short@${tag}.test,ANNOTATOR,,short`,
        `long@${tag}.test,annotator,,${"é".repeat(37)}`,
        `ok1@${tag}.test,lead,Again,`,
        `role@${tag}.test,boss,,`,
      ].join("\n"),
    );
    const result = await cli("create-account", "--from-csv", file);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("nothing was created");
    expect(result.stderr).toContain("bad.csv: row 3 (line 3): email:");
    expect(result.stderr).toContain("bad.csv: row 4 (line 4): password: Password must have at least 8 characters");
    expect(result.stderr).toContain("bad.csv: row 5 (line 5): password:");
    expect(result.stderr).toContain("72 bytes");
    expect(result.stderr).toContain(`bad.csv: row 6 (line 6): email: ok1@${tag}.test is already on row 2`);
    expect(result.stderr).toContain("bad.csv: row 7 (line 7): role:");
    expect(await db.account.count({ where: { email: { endsWith: `@${tag}.test` } } })).toBe(0);
  }, 120_000);

  test("a good file creates every account in one go and prints the generated passwords once", async () => {
    const file = csvFile("crowd.csv", ["name,email,password,role", `Ann A,annA@${tag}.test,given-password-1,annotator`, `,annb@${tag}.test,,ANNOTATOR`, `Lead,lead@${tag}.test,,lead`].join("\n"));
    const result = await cli("create-account", "--from-csv", file);
    expect(result.stderr).not.toContain("Error");
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { created: number; accounts: { email: string; role: string; name: string; generatedPassword?: string }[] };
    expect(out.created).toBe(3);
    expect(out.accounts.map((a) => [a.email, a.role, a.name])).toEqual([
      [`anna@${tag}.test`, "ANNOTATOR", "Ann A"],
      [`annb@${tag}.test`, "ANNOTATOR", "annb"],
      [`lead@${tag}.test`, "LEAD", "Lead"],
    ]);
    expect(out.accounts[0].generatedPassword).toBeUndefined();
    const generated = out.accounts[1].generatedPassword!;
    expect(generated.length).toBeGreaterThanOrEqual(12);
    const stored = await db.account.findUniqueOrThrow({ where: { email: `annb@${tag}.test` } });
    expect(stored.active).toBe(true);
    expect(await verifyPassword(generated, stored.passwordHash!)).toBe(true);
    expect(await verifyPassword("given-password-1", (await db.account.findUniqueOrThrow({ where: { email: `anna@${tag}.test` } })).passwordHash!)).toBe(true);

    // Running the same file again refuses every line and changes nothing.
    const again = await cli("create-account", "--from-csv", file);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`crowd.csv: row 2 (line 2): email: an account with email anna@${tag}.test already exists`);
    expect(await db.account.count({ where: { email: { endsWith: `@${tag}.test` } } })).toBe(3);
  }, 120_000);
});

describe("assign", () => {
  test("assigns the named annotators from the study's plan; unknown emails refuse", async () => {
    fx = await createAnnotationFixture(db, tag);
    const emails = await db.account.findMany({ where: { id: { in: [fx.accounts.ann1, fx.accounts.ann2] } }, select: { email: true, id: true } });
    await db.account.updateMany({ where: { id: { in: emails.map((e) => e.id) } }, data: { active: true } });

    const refused = await cli("assign", "--study", fx.slug, "--annotators", `${emails[0].email},nobody@${tag}.test`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`no account with email nobody@${tag}.test`);
    expect(await db.assignment.count({ where: { studyId: fx.studyId } })).toBe(0);

    const neither = await cli("assign", "--study", fx.slug);
    expect(neither.code).toBe(1);
    expect(neither.stderr).toContain("Give either --annotators EMAIL,... or --all-annotators");

    const result = await cli("assign", "--study", fx.slug, "--annotators", emails.map((e) => e.email.toUpperCase()).join(","));
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { created: number; annotators: number };
    expect(summary.annotators).toBe(2);
    const rows = await db.assignment.findMany({ where: { studyId: fx.studyId }, select: { annotatorId: true } });
    expect(rows.length).toBe(summary.created);
    expect(new Set(rows.map((r) => r.annotatorId))).toEqual(new Set(emails.map((e) => e.id)));

    // The same command again changes nothing: the plan is seeded.
    const again = JSON.parse((await cli("assign", "--study", fx.slug, "--annotators", emails.map((e) => e.email).join(","))).stdout) as { created: number; updated: number; removed: number };
    expect(again).toMatchObject({ created: 0, updated: 0, removed: 0 });

    const all = await cli("assign", "--study", fx.slug, "--all-annotators");
    expect(all.code).toBe(0);
    const active = await db.account.findMany({ where: { role: "ANNOTATOR", active: true }, select: { id: true } });
    const assigned = await db.assignment.findMany({ where: { studyId: fx.studyId }, distinct: ["annotatorId"], select: { annotatorId: true } });
    expect(new Set(assigned.map((a) => a.annotatorId))).toEqual(new Set(active.map((u) => u.id)));
  }, 180_000);
});
