import { beforeAll, describe, expect, inject, test } from "vitest";
import { createUser, findOrCreateImportedAnnotator, setPassword } from "@/lib/data/users";
import { createClient } from "@/lib/db/client";
import { ensureInitialAccounts } from "@/lib/setup/first-start";

describe("accounts", () => {
  const db = createClient(inject("databaseUrl"));
  beforeAll(() => {
    process.env.DATABASE_URL = inject("databaseUrl");
  });

  test("passwords are stored as bcrypt hashes and emails are unique, case-insensitively", async () => {
    const user = await createUser({ email: "Hash.Check@Example.org", role: "ANNOTATOR", password: "s3cret-password" }, db);
    expect(user.email).toBe("hash.check@example.org");
    expect(user.passwordHash).toMatch(/^\$2[aby]\$10\$/);
    await expect(createUser({ email: "hash.check@example.org", role: "LEAD", password: "another-password" }, db)).rejects.toThrow(/already exists/);
  });

  test("imported annotators are inactive until a lead sets a password", async () => {
    const imported = await findOrCreateImportedAnnotator("Marcus", db);
    expect(imported.active).toBe(false);
    expect(imported.passwordHash).toBeNull();
    expect((await findOrCreateImportedAnnotator("marcus", db)).id).toBe(imported.id);
    const activated = await setPassword(imported.id, "activated-pw", db);
    expect(activated.active).toBe(true);
  });

  test("the first start creates one admin and one lead, and generated passwords only once", async () => {
    const first = await ensureInitialAccounts(db, { ADMIN_EMAIL: "root@example.org", LEAD_EMAIL: "lead@example.org", LEAD_PASSWORD: "given-password" });
    expect(first.map((a) => [a.role, a.generated])).toEqual([
      ["ADMIN", true],
      ["LEAD", false],
    ]);
    expect(first[0].password.length).toBeGreaterThanOrEqual(12);
    expect(await ensureInitialAccounts(db, {})).toEqual([]);
  });

  test("sign-in: wrong password counts a failure, an inactive account is refused, success resets", async () => {
    const { authenticate } = await import("@/lib/auth/authenticate");
    await createUser({ email: "signin@example.org", role: "ANNOTATOR", password: "right-password" }, db);
    await expect(authenticate("signin@example.org", "wrong")).rejects.toThrow("Wrong email or password.");
    await expect(authenticate("nobody@example.org", "wrong")).rejects.toThrow("Wrong email or password.");
    expect((await db.user.findUniqueOrThrow({ where: { email: "signin@example.org" } })).failedLoginCount).toBe(1);
    const ok = await authenticate("SignIn@example.org", "right-password");
    expect(ok.role).toBe("ANNOTATOR");
    expect((await db.user.findUniqueOrThrow({ where: { email: "signin@example.org" } })).failedLoginCount).toBe(0);
    const inactive = await findOrCreateImportedAnnotator("Dormant", db);
    await db.user.update({ where: { id: inactive.id }, data: { passwordHash: (await db.user.findUniqueOrThrow({ where: { email: "signin@example.org" } })).passwordHash } });
    await expect(authenticate(inactive.email, "right-password")).rejects.toThrow(/not active/);
  });
});
