/**
 * Sign-in throttling from outside: a burst of wrong passwords is slowed down per account and per
 * client address, the address being the connection's (the server runs without TRUSTED_PROXIES,
 * so X-Forwarded-For is the client's own word and ignored), and a browser that signed in before
 * carries a device cookie that no burst from its address locks out. Bursts come from their own
 * loopback addresses (127.0.0.x) where they must slow down no other test; the one from the
 * browser's own address is forgotten at the end.
 */
import http from "node:http";
import { expect, test } from "@playwright/test";
import { addAccount } from "@/lib/data/accounts";
import { signIn, testDb } from "./fixtures";

/** A script signing in from `localAddress`, keeping its cookies (next-auth's CSRF token among them). */
function loopbackClient(baseURL: string, localAddress: string) {
  const base = new URL(baseURL);
  const cookies = new Map<string, string>();
  const send = (path: string, method: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      const request = http.request({ host: base.hostname, port: base.port, path, method, localAddress, headers: { ...headers, ...(cookie ? { cookie } : {}) } }, (response) => {
        for (const line of response.headers["set-cookie"] ?? []) {
          const [pair] = line.split(";");
          const eq = pair.indexOf("=");
          cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
        }
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      request.on("error", reject);
      request.end(body);
    });
  let csrfToken = "";
  return {
    /** Fetches next-auth's CSRF token (and its cookie) once for every attempt, as a script would. */
    async start() {
      csrfToken = (JSON.parse((await send("/api/auth/csrf", "GET")).body) as { csrfToken: string }).csrfToken;
      return this;
    },
    /** One credentials sign-in through next-auth's own endpoint. */
    async attempt(email: string, password: string, headers: Record<string, string> = {}) {
      const form = new URLSearchParams({ email, password, csrfToken, json: "true" }).toString();
      const response = await send("/api/auth/callback/credentials", "POST", { ...headers, "content-type": "application/x-www-form-urlencoded" }, form);
      const { url } = JSON.parse(response.body) as { url: string };
      // next-auth sends a refused sign-in to its error page with the message (a bad CSRF token, too).
      expect(url).not.toContain("csrf=");
      return { signedIn: !url.includes("error="), error: new URL(url).searchParams.get("error") ?? "" };
    },
  };
}

test("29 wrong and 1 right password in one parallel burst do not sign in, for known and unknown e-mails alike", async ({ baseURL }) => {
  await addAccount({ email: "burst@e2e.test", role: "ANNOTATOR", password: "right-password" }, testDb());
  for (const [email, address] of [
    ["burst@e2e.test", "127.0.0.10"],
    ["nobody-burst@e2e.test", "127.0.0.11"],
  ]) {
    const client = await loopbackClient(baseURL!, address).start();
    const wrong = Array.from({ length: 29 }, (_, i) => client.attempt(email, `wrong-password-${i}`));
    // Sent once the wrong ones are on their way, as the last of the burst.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const results = await Promise.all([...wrong, client.attempt(email, "right-password")]);
    const right = results.at(-1);
    expect(right?.signedIn, email).toBe(false);
    expect(right?.error, email).toMatch(/^Too many sign-in attempts\. Try again in \d+ s\.$/);
    const checked = results.filter((r) => r.error === "Wrong email or password.").length;
    expect(checked, email).toBeGreaterThanOrEqual(5);
    expect(checked, email).toBeLessThanOrEqual(7);
  }
});

test("X-Forwarded-For does not take a client out of its address's count: the server has no trusted proxy", async ({ baseURL }) => {
  const client = await loopbackClient(baseURL!, "127.0.0.12").start();
  // 25 e-mails from one address, each claiming another address: 20 are checked, then the address waits.
  const results = await Promise.all(Array.from({ length: 25 }, (_, i) => client.attempt(`spray-${i}@e2e.test`, "guess-password", { "x-forwarded-for": `203.0.113.${i}` })));
  expect(results.filter((r) => r.error === "Wrong email or password.")).toHaveLength(20);
  expect(results.filter((r) => r.error.startsWith("Too many sign-in attempts"))).toHaveLength(5);
  // The rows counted: one address, the connection's; none for the addresses claimed.
  expect((await testDb().signInThrottle.findUniqueOrThrow({ where: { key: "address:127.0.0.12" } })).attempts).toBe(25);
  expect(await testDb().signInThrottle.count({ where: { key: { startsWith: "address:203.0.113." } } })).toBe(0);
});

test("a burst of wrong passwords from a browser's address does not lock out that browser, which signed in before (device cookie)", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const account = { email: "known-browser@e2e.test", password: "right-password" };
  await addAccount({ ...account, role: "ANNOTATOR" }, testDb());
  const known = await browser.newContext();
  const fresh = await browser.newContext();
  const attacker = await playwright.request.newContext({ baseURL });
  try {
    const page = await known.newPage();
    await signIn(page, account);
    const device = (await known.cookies()).find((c) => c.name === "crjudge-device");
    expect(device, "a device cookie after signing in").toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/api/auth/callback/credentials" });
    // Signed out: the device cookie stays, the session goes.
    await known.clearCookies({ name: /next-auth/ });
    await page.goto("/signin");
    await expect(page.getByTestId("current-account")).toHaveCount(0);

    // The same address (this machine: the browser and the attacker both connect from 127.0.0.1),
    // guessing this account's password and spraying others.
    const { csrfToken } = (await (await attacker.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const guesses = Array.from({ length: 30 }, (_, i) =>
      attacker.post("/api/auth/callback/credentials", { form: { email: i % 3 ? `spray-known-${i}@e2e.test` : account.email, password: `guess-${i}`, csrfToken, json: "true" } }),
    );
    await Promise.all(guesses);

    // A browser without the cookie is refused unchecked, even with the right password...
    const other = await fresh.newPage();
    await other.goto("/signin");
    await other.getByLabel("Email").fill(account.email);
    await other.getByLabel("Password").fill(account.password);
    await other.getByRole("button", { name: "Sign in" }).click();
    await expect(other.getByTestId("form-error")).toContainText("Too many sign-in attempts");
    // ...the known browser signs in.
    await signIn(page, account);
    expect((await page.request.get("/api/me/assignments")).status()).toBe(200);
  } finally {
    await Promise.all([known.close(), fresh.close(), attacker.dispose()]);
    // Every other test signs in from 127.0.0.1 too.
    await testDb().signInThrottle.deleteMany({ where: { key: { in: ["address:127.0.0.1", `account:${account.email}`] } } });
  }
});
