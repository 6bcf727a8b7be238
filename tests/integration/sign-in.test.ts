import { beforeAll, describe, expect, inject, test } from "vitest";
import { authenticate } from "@/lib/auth/authenticate";
import type { DeviceToken } from "@/lib/auth/device-cookie";
import { addAccount } from "@/lib/data/accounts";
import { createClient } from "@/lib/db/client";

/** Sign-in: attempts counted in PostgreSQL before the password is checked. */
describe("sign-in", () => {
  const db = createClient(inject("databaseUrl"));
  beforeAll(() => {
    process.env.DATABASE_URL = inject("databaseUrl");
  });

  /** Each attempt's outcome: "ok", or the message it was refused with. */
  const outcome = (email: string, password: string, address: string, device: DeviceToken | null = null) =>
    authenticate(email, password, address, device).then(
      () => "ok",
      (error: Error) => error.message,
    );

  test("29 wrong and 1 right password in one parallel burst: 5 are checked, the right one is not", async () => {
    await addAccount({ email: "burst@example.org", role: "ANNOTATOR", password: "right-password" }, db);
    for (const [email, address] of [
      ["burst@example.org", "198.51.100.1"],
      ["nobody-burst@example.org", "198.51.100.2"],
    ]) {
      const passwords = [...Array.from({ length: 29 }, (_, i) => `wrong-password-${i}`), "right-password"];
      const outcomes = await Promise.all(passwords.map((password) => outcome(email, password, address)));
      expect(outcomes.at(-1), email).toMatch(/^Too many sign-in attempts\. Try again in \d+ s\.$/);
      // Known and unknown e-mails alike: the free attempts checked, then refusals (a slow
      // machine may let one or two more through after the 1 s and 2 s waits).
      const wrong = outcomes.filter((o) => o === "Wrong email or password.").length;
      expect(wrong, email).toBeGreaterThanOrEqual(5);
      expect(wrong, email).toBeLessThanOrEqual(7);
      expect(outcomes.filter((o) => o.startsWith("Too many sign-in attempts")).length, email).toBe(30 - wrong);
    }
    expect(await db.signInThrottle.findUniqueOrThrow({ where: { key: "account:burst@example.org" } })).toMatchObject({ attempts: 30 });
    expect(await db.signInThrottle.findUniqueOrThrow({ where: { key: "account:nobody-burst@example.org" } })).toMatchObject({ attempts: 30 });
  });

  test("the wait grows but ends: after it, the right password signs in and the count starts afresh", async () => {
    await addAccount({ email: "patient@example.org", role: "ANNOTATOR", password: "right-password" }, db);
    // Sent together so that the sixth is counted well within a second of the fifth.
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => outcome("patient@example.org", "wrong-password", "198.51.100.3")));
    // Five checked, in whatever order they reach the database; six counted, so the next one is
    // checked 2 s after the last checked one.
    expect(outcomes.filter((o) => o === "Wrong email or password.")).toHaveLength(5);
    expect(outcomes.filter((o) => o === "Too many sign-in attempts. Try again in 2 s.")).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await outcome("patient@example.org", "right-password", "198.51.100.3")).toBe("ok");
    expect(await db.signInThrottle.findUnique({ where: { key: "account:patient@example.org" } })).toBeNull();
  });

  test("one address trying many e-mails is slowed down after 20 attempts; a success gives its attempt back", async () => {
    const address = "198.51.100.4";
    await addAccount({ email: "office@example.org", role: "ANNOTATOR", password: "right-password" }, db);
    expect(await outcome("office@example.org", "right-password", address)).toBe("ok");
    expect((await db.signInThrottle.findUniqueOrThrow({ where: { key: `address:${address}` } })).attempts).toBe(0);
    const outcomes = await Promise.all(Array.from({ length: 21 }, (_, i) => outcome(`spray-${i}@example.org`, "guess-password", address)));
    expect(outcomes.filter((o) => o === "Wrong email or password.")).toHaveLength(20);
    expect(outcomes.filter((o) => o.startsWith("Too many sign-in attempts"))).toHaveLength(1);
    // The same e-mail from another address is still checked.
    expect(await outcome("spray-20@example.org", "guess-password", "198.51.100.5")).toBe("Wrong email or password.");
  });

  test("a burst on an account from its browser's address locks out neither that browser (its device cookie) nor the account's other known browsers", async () => {
    const address = "198.51.100.20";
    await addAccount({ email: "known-browser@example.org", role: "ANNOTATOR", password: "right-password" }, db);
    const known: DeviceToken = { email: "known-browser@example.org", nonce: "known-browser-nonce" };
    const other: DeviceToken = { email: "known-browser@example.org", nonce: "other-browser-nonce" };
    // The attacker's burst, on this account and on others, from the same address.
    await Promise.all(Array.from({ length: 30 }, (_, i) => outcome(i % 2 ? "known-browser@example.org" : `spray-known-${i}@example.org`, "guess-password", address)));
    expect(await outcome("known-browser@example.org", "right-password", address)).toMatch(/^Too many sign-in attempts/);
    expect(await outcome("someone-else@example.org", "right-password", address)).toMatch(/^Too many sign-in attempts/);
    // A device cookie of another account is no exemption.
    expect(await outcome("known-browser@example.org", "right-password", address, { email: "someone-else@example.org", nonce: "n" })).toMatch(/^Too many sign-in attempts/);
    expect(await outcome("known-browser@example.org", "right-password", address, known)).toBe("ok");
    expect(await outcome("known-browser@example.org", "right-password", "198.51.100.21", other)).toBe("ok");
    expect(await db.signInThrottle.findUnique({ where: { key: "device:known-browser-nonce" } })).toBeNull();
  });

  test("a device cookie's own wrong passwords are slowed down like an account's", async () => {
    await addAccount({ email: "stolen-cookie@example.org", role: "ANNOTATOR", password: "right-password" }, db);
    const device: DeviceToken = { email: "stolen-cookie@example.org", nonce: "stolen-nonce" };
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => outcome("stolen-cookie@example.org", `wrong-${i}`, `198.51.100.${30 + i}`, device)));
    expect(outcomes.filter((o) => o === "Wrong email or password.").length).toBeGreaterThanOrEqual(5);
    expect(outcomes.filter((o) => o.startsWith("Too many sign-in attempts")).length).toBeGreaterThanOrEqual(1);
    // Counted under the cookie, not the account or the addresses.
    expect((await db.signInThrottle.findUniqueOrThrow({ where: { key: "device:stolen-nonce" } })).attempts).toBe(8);
    expect(await db.signInThrottle.findUnique({ where: { key: "account:stolen-cookie@example.org" } })).toBeNull();
  });

  test("an inactive account and a password longer than 72 bytes do not sign in", async () => {
    const inactive = await addAccount({ email: "dormant@example.org", role: "ANNOTATOR", password: "right-password" }, db);
    await db.account.update({ where: { id: inactive.id }, data: { active: false } });
    expect(await outcome("dormant@example.org", "right-password", "198.51.100.6")).toBe("This account is not active. Ask a study lead to activate it.");
    const exact = "p".repeat(72);
    await addAccount({ email: "long@example.org", role: "ANNOTATOR", password: exact }, db);
    expect(await outcome("long@example.org", `${exact}-and-more`, "198.51.100.6")).toBe("Wrong email or password.");
    expect(await outcome("Long@Example.org", exact, "198.51.100.6")).toBe("ok");
  });

  test("unknown and known e-mails take a similar time (one bcrypt comparison each)", async () => {
    await addAccount({ email: "timed@example.org", role: "ANNOTATOR", password: "right-password" }, db);
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      for (const [email, times] of [
        ["timed@example.org", known],
        [`nobody-timed-${i}@example.org`, unknown],
      ] as const) {
        const started = performance.now();
        expect(await outcome(email, "wrong-password", `198.51.100.${10 + i}`)).toBe("Wrong email or password.");
        times.push(performance.now() - started);
      }
    }
    // Before: 13 ms against 101 ms. Now both pay for one bcrypt comparison (about 60 ms here).
    expect(median(unknown) / median(known)).toBeGreaterThan(0.5);
    expect(median(unknown) / median(known)).toBeLessThan(2);
  });
});
