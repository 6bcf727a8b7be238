import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, inject, test } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { parseEnv } from "@/lib/env";
import { addAccount, createAccount, ensureInitialAccounts, findOrCreateImportedAnnotator, listAccounts, manageableAccountsWhere, setAccountActive, setAccountPassword } from "@/lib/data/accounts";
import { addStudyMember, NOT_ADDABLE_MESSAGE } from "@/lib/data/study-members";
import { AppError } from "@/lib/errors";
import { createClient } from "@/lib/db/client";
import type { Account } from "@/lib/generated/prisma/client";
import { cli } from "./cli";

describe("accounts", () => {
  const db = createClient(inject("databaseUrl"));
  beforeAll(() => {
    process.env.DATABASE_URL = inject("databaseUrl");
  });

  test("passwords are stored as bcrypt hashes and emails are unique, case-insensitively", async () => {
    const account = await addAccount({ email: "Hash.Check@Example.org", role: "ANNOTATOR", password: "s3cret-password" }, db);
    expect(account.email).toBe("hash.check@example.org");
    expect(account.passwordHash).toMatch(/^\$2[aby]\$10\$/);
    await expect(addAccount({ email: "hash.check@example.org", role: "LEAD", password: "another-password" }, db)).rejects.toThrow(/already exists/);
  });

  test("imported annotators are inactive until a lead sets a password", async () => {
    const imported = await findOrCreateImportedAnnotator("Marcus", db);
    expect(imported.active).toBe(false);
    expect(imported.passwordHash).toBeNull();
    expect((await findOrCreateImportedAnnotator("marcus", db)).id).toBe(imported.id);
    await setAccountPassword({ id: "an-admin", role: "ADMIN" }, imported.id, "activated-pw", { activate: true });
    expect((await db.account.findUniqueOrThrow({ where: { id: imported.id } })).active).toBe(true);
  });

  test("the first start creates one admin and one lead, and generated passwords only once", async () => {
    const first = await ensureInitialAccounts(db, { ADMIN_EMAIL: "root@example.org", LEAD_EMAIL: "lead@example.org", LEAD_PASSWORD: "given-password" });
    expect(first.map((a) => [a.role, a.generated])).toEqual([
      ["ADMIN", true],
      ["LEAD", false],
    ]);
    expect(first[0].password.length).toBeGreaterThanOrEqual(12);
    expect(await ensureInitialAccounts(db, parseEnv({}))).toEqual([]);
  });
});

// After the first-start test above, which needs a database without an admin.
/** Accounts: who may manage whom, with the rule inside the query. */
describe("account rules", () => {
  const db = createClient(inject("databaseUrl"));
  let admin: Account, lead: Account, otherLead: Account, ownAnnotator: Account, foreignAnnotator: Account, freeAnnotator: Account;

  beforeAll(async () => {
    process.env.DATABASE_URL = inject("databaseUrl");
    const make = (email: string, role: "ADMIN" | "LEAD" | "ANNOTATOR") => addAccount({ email, role, password: "initial-password" }, db);
    admin = await make("rules-admin@example.org", "ADMIN");
    lead = await make("rules-lead@example.org", "LEAD");
    otherLead = await make("rules-other-lead@example.org", "LEAD");
    ownAnnotator = await make("rules-own@example.org", "ANNOTATOR");
    foreignAnnotator = await make("rules-foreign@example.org", "ANNOTATOR");
    freeAnnotator = await make("rules-free@example.org", "ANNOTATOR");
    await db.study.create({ data: { slug: "rules-own", name: "own", tasks: ["REVIEW_RATING"], ownerId: lead.id, members: { create: { accountId: ownAnnotator.id, role: "ANNOTATOR" } } } });
    await db.study.create({ data: { slug: "rules-foreign", name: "foreign", tasks: ["REVIEW_RATING"], ownerId: otherLead.id, members: { create: { accountId: foreignAnnotator.id, role: "ANNOTATOR" } } } });
  });

  const snapshot = (id: string) => db.account.findUniqueOrThrow({ where: { id }, select: { passwordHash: true, role: true, active: true, sessionVersion: true } });

  test("a lead's every account action with the admin's, another lead's or a foreign annotator's id changes nothing", async () => {
    for (const target of [admin, otherLead, lead, foreignAnnotator]) {
      const before = await snapshot(target.id);
      await expect(setAccountPassword(lead, target.id, "taken-over-1", { activate: true }), target.email).rejects.toThrow(/No such account/);
      await expect(setAccountPassword(lead, target.id, "taken-over-1", { activate: false }), target.email).rejects.toThrow(/No such account/);
      await expect(setAccountActive(lead, target.id, false), target.email).rejects.toThrow(/No such account/);
      await expect(setAccountActive(lead, target.id, true), target.email).rejects.toThrow(/No such account/);
      expect(await snapshot(target.id), target.email).toEqual(before);
    }
  });

  test("an annotator manages no account, not even their own", async () => {
    const before = await snapshot(ownAnnotator.id);
    await expect(setAccountPassword(ownAnnotator, ownAnnotator.id, "changed-pass", { activate: false })).rejects.toThrow(/No such account/);
    await expect(setAccountActive(ownAnnotator, freeAnnotator.id, false)).rejects.toThrow(/No such account/);
    expect(await snapshot(ownAnnotator.id)).toEqual(before);
  });

  test("a lead resets and deactivates annotators of their studies and of no study; each ends their sessions", async () => {
    for (const target of [ownAnnotator, freeAnnotator]) {
      const before = await snapshot(target.id);
      await setAccountPassword(lead, target.id, "new-password-1", { activate: false });
      const reset = await snapshot(target.id);
      expect(reset.passwordHash).not.toBe(before.passwordHash);
      expect(reset.sessionVersion).toBe(before.sessionVersion + 1);
      await setAccountActive(lead, target.id, false);
      expect(await snapshot(target.id)).toMatchObject({ active: false, sessionVersion: before.sessionVersion + 2 });
      await setAccountActive(lead, target.id, true);
      expect(await snapshot(target.id)).toMatchObject({ active: true, sessionVersion: before.sessionVersion + 2 });
    }
  });

  test("only admins create, reset and deactivate leads and admins; an admin cannot deactivate themself", async () => {
    await expect(createAccount(lead, { email: "made-by-lead@example.org", role: "LEAD", password: "lead-made-1" })).rejects.toThrow(/Only an admin/);
    await expect(createAccount(lead, { email: "made-by-lead2@example.org", role: "ADMIN", password: "lead-made-1" })).rejects.toThrow(/Only an admin/);
    expect(await db.account.count({ where: { email: { startsWith: "made-by-lead" } } })).toBe(0);
    const created = await createAccount(admin, { email: "made-by-admin@example.org", role: "LEAD", password: "admin-made-1" });
    expect(created.role).toBe("LEAD");
    await setAccountPassword(admin, otherLead.id, "reset-by-admin", { activate: false });
    await setAccountActive(admin, created.id, false);
    expect((await snapshot(created.id)).active).toBe(false);
    await expect(setAccountActive(admin, admin.id, false)).rejects.toThrow(/No such account/);
    expect((await snapshot(admin.id)).active).toBe(true);
  });

  test("a lead's account list holds only the accounts they may manage", async () => {
    const emails = (await listAccounts(lead)).map((a) => a.email);
    expect(emails).toContain(ownAnnotator.email);
    expect(emails).toContain(freeAnnotator.email);
    expect(emails).not.toContain(foreignAnnotator.email);
    expect(emails).not.toContain(admin.email);
    expect(emails).not.toContain(otherLead.email);
    expect(await db.account.count({ where: manageableAccountsWhere(admin) })).toBe(await db.account.count());
  });

  test("passwords: at least 8 characters and at most bcrypt's 72 bytes, wherever one is set", async () => {
    await expect(addAccount({ email: "short@example.org", role: "ANNOTATOR", password: "seven77" }, db)).rejects.toThrow(/at least 8 characters/);
    // 37 two-byte characters: 37 characters, 74 bytes.
    await expect(addAccount({ email: "long@example.org", role: "ANNOTATOR", password: "é".repeat(37) }, db)).rejects.toThrow(/at most 72 bytes/);
    await expect(setAccountPassword(admin, ownAnnotator.id, "x".repeat(73), { activate: false })).rejects.toThrow(/at most 72 bytes/);
    expect((await addAccount({ email: "exact@example.org", role: "ANNOTATOR", password: "é".repeat(36) }, db)).passwordHash).toMatch(/^\$2/);
  });

  test("`cli users --json` lists every account with its role, state and studies", async () => {
    const { stdout } = await promisify(execFile)(path.resolve("node_modules/.bin/tsx"), ["scripts/cli.ts", "accounts", "--json"], { env: { ...process.env, DATABASE_URL: inject("databaseUrl") } });
    const accounts = JSON.parse(stdout) as { id: string; email: string; role: string; active: boolean; studies: { slug: string; role: string }[] }[];
    expect(accounts).toHaveLength(await db.account.count());
    expect(accounts.find((u) => u.email === lead.email)).toMatchObject({ id: lead.id, role: "LEAD", active: true, studies: [{ slug: "rules-own", role: "OWNER" }] });
    expect(accounts.find((u) => u.email === foreignAnnotator.email)).toMatchObject({ role: "ANNOTATOR", studies: [{ slug: "rules-foreign", role: "ANNOTATOR" }] });
    expect(accounts.find((u) => u.email === freeAnnotator.email)?.studies).toEqual([]);
  });

  test("the retired commands `users` and `create-user` are refused with their new names, and do nothing", async () => {
    const before = await db.account.count();
    for (const [old, renamed] of [["users", "accounts"], ["create-user", "create-account"]]) { // the retired commands and their new names
      const refused = await cli(old, "--email", "retired-command@example.org", "--role", "ANNOTATOR");
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`The command "${old}" is now "${renamed}"`);
    }
    expect(await db.account.count()).toBe(before);
  });
});

/**
 * The takeover chain: a lead adds another lead's annotator to a study of theirs, which made the
 * account one they managed, then resets its password. Whom a lead may add and whom they manage
 * are both checked in the query, when the change runs.
 */
describe("whom a lead may add to a study, and then manage", () => {
  const db = createClient(inject("databaseUrl"));
  const stamp = Date.now();
  let admin: Account, victimLead: Account, intruder: Account, victim: Account, free: Account;
  const slugs = { victim: `chain-victim-${stamp}`, victimSecond: `chain-victim2-${stamp}`, intruder: `chain-intruder-${stamp}` };

  beforeAll(async () => {
    process.env.DATABASE_URL = inject("databaseUrl");
    const make = (name: string, role: "ADMIN" | "LEAD" | "ANNOTATOR") => addAccount({ email: `chain-${name}-${stamp}@example.org`, role, password: "victim-password" }, db);
    [admin, victimLead, intruder, victim, free] = [await make("admin", "ADMIN"), await make("lead", "LEAD"), await make("intruder", "LEAD"), await make("victim", "ANNOTATOR"), await make("free", "ANNOTATOR")];
    const study = (slug: string, owner: Account) => db.study.create({ data: { slug, name: slug, tasks: ["REVIEW_RATING"], ownerId: owner.id } });
    await study(slugs.victim, victimLead);
    await study(slugs.victimSecond, victimLead);
    await study(slugs.intruder, intruder);
    await addStudyMember(victimLead, { slug: slugs.victim, email: victim.email, role: "ANNOTATOR" });
  });

  const refusal = (work: Promise<unknown>) =>
    work.then(
      () => "added",
      (e: unknown) => (e instanceof AppError ? `${e.status} ${e.userMessage}` : String(e)),
    );
  const snapshot = (id: string) => db.account.findUniqueOrThrow({ where: { id }, select: { passwordHash: true, active: true, sessionVersion: true, memberships: { select: { studyId: true } } } });

  test("another lead cannot add the annotator, and is told exactly what an e-mail without an account gets", async () => {
    const before = await snapshot(victim.id);
    const nobody = await refusal(addStudyMember(intruder, { slug: slugs.intruder, email: `nobody-${stamp}@example.org`, role: "ANNOTATOR" }));
    expect(nobody).toBe(`400 ${NOT_ADDABLE_MESSAGE}`);
    for (const email of [victim.email, victimLead.email, admin.email, intruder.email])
      expect(await refusal(addStudyMember(intruder, { slug: slugs.intruder, email, role: "ANNOTATOR" })), email).toBe(nobody);
    // Adding as a lead is an admin's, whatever the e-mail.
    expect(await refusal(addStudyMember(intruder, { slug: slugs.intruder, email: victim.email, role: "LEAD" }))).toBe(await refusal(addStudyMember(intruder, { slug: slugs.intruder, email: `nobody-${stamp}@example.org`, role: "LEAD" })));
    expect(await snapshot(victim.id)).toEqual(before);
  });

  test("every account action of the other lead leaves the annotator's password working", async () => {
    const before = await snapshot(victim.id);
    await expect(setAccountPassword(intruder, victim.id, "taken-over-1", { activate: false })).rejects.toThrow(/No such account/);
    await expect(setAccountPassword(intruder, victim.id, "taken-over-1", { activate: true })).rejects.toThrow(/No such account/);
    await expect(setAccountActive(intruder, victim.id, false)).rejects.toThrow(/No such account/);
    await expect(setAccountActive(intruder, victim.id, true)).rejects.toThrow(/No such account/);
    const after = await db.account.findUniqueOrThrow({ where: { id: victim.id } });
    expect(await verifyPassword("victim-password", after.passwordHash!)).toBe(true);
    expect(await snapshot(victim.id)).toEqual(before);
    expect((await listAccounts(intruder)).map((a) => a.id)).not.toContain(victim.id);
  });

  test("an annotator an admin shares between two leads' studies is the admin's to manage; its lead may still add it to their other studies", async () => {
    await addStudyMember(admin, { slug: slugs.intruder, email: victim.email, role: "ANNOTATOR" });
    const before = await snapshot(victim.id);
    for (const lead of [intruder, victimLead]) {
      await expect(setAccountPassword(lead, victim.id, "taken-over-1", { activate: false })).rejects.toThrow(/No such account/);
      await expect(setAccountActive(lead, victim.id, false)).rejects.toThrow(/No such account/);
      expect((await listAccounts(lead)).map((a) => a.id)).not.toContain(victim.id);
    }
    expect(await snapshot(victim.id)).toEqual(before);
    // Already in a study of each lead: both may add it to another of theirs, which changes whom it belongs to for neither.
    expect(await refusal(addStudyMember(victimLead, { slug: slugs.victimSecond, email: victim.email, role: "ANNOTATOR" }))).toBe("added");
    await setAccountActive(admin, victim.id, false);
    await setAccountActive(admin, victim.id, true);
    // Back in the victim lead's studies only, it is theirs again.
    await db.studyMember.deleteMany({ where: { accountId: victim.id, study: { slug: slugs.intruder } } });
    await setAccountActive(victimLead, victim.id, false);
    await setAccountActive(victimLead, victim.id, true);
  });

  test("an annotator of no study: whichever lead adds it first manages it, and the other lead can no longer add it", async () => {
    expect(await refusal(addStudyMember(intruder, { slug: slugs.intruder, email: free.email, role: "ANNOTATOR" }))).toBe("added");
    await setAccountPassword(intruder, free.id, "new-password-1", { activate: false });
    expect(await refusal(addStudyMember(victimLead, { slug: slugs.victim, email: free.email, role: "ANNOTATOR" }))).toBe(`400 ${NOT_ADDABLE_MESSAGE}`);
    await expect(setAccountPassword(victimLead, free.id, "taken-over-1", { activate: false })).rejects.toThrow(/No such account/);
  });
});
