import { expect, test, type APIRequestContext } from "@playwright/test";
import { createUser } from "@/lib/data/users";
import { testDb } from "./fixtures";

/** One credentials sign-in through next-auth's own endpoint, as a script would send it. */
async function attempt(request: APIRequestContext, csrfToken: string, email: string, password: string, address: string) {
  const response = await request.post("/api/auth/callback/credentials", {
    // The burst comes from its own (documentation) address so it slows down no other test.
    headers: { "X-Forwarded-For": address },
    form: { email, password, csrfToken, json: "true" },
    maxRedirects: 0,
  });
  const { url } = (await response.json()) as { url: string };
  // next-auth sends a refused sign-in to its error page with the message (a bad CSRF token, too).
  expect(url).not.toContain("csrf=");
  return { signedIn: !url.includes("error="), error: new URL(url).searchParams.get("error") ?? "" };
}

test("29 wrong and 1 right password in one parallel burst do not sign in, for known and unknown e-mails alike", async ({ playwright, baseURL }) => {
  await createUser({ email: "burst@e2e.test", role: "ANNOTATOR", password: "right-password" }, testDb());
  for (const [email, address] of [
    ["burst@e2e.test", "192.0.2.10"],
    ["nobody-burst@e2e.test", "192.0.2.11"],
  ]) {
    const request = await playwright.request.newContext({ baseURL });
    // One CSRF token (and its cookie) for the whole burst, as a script would fetch it once.
    const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const wrong = Array.from({ length: 29 }, (_, i) => attempt(request, csrfToken, email, `wrong-password-${i}`, address));
    // Sent once the wrong ones are on their way, as the last of the burst.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const results = await Promise.all([...wrong, attempt(request, csrfToken, email, "right-password", address)]);
    const right = results.at(-1);
    expect(right?.signedIn, email).toBe(false);
    expect(right?.error, email).toMatch(/^Too many sign-in attempts\. Try again in \d+ s\.$/);
    const checked = results.filter((r) => r.error === "Wrong email or password.").length;
    expect(checked, email).toBeGreaterThanOrEqual(5);
    expect(checked, email).toBeLessThanOrEqual(7);
    expect((await request.get("/api/me/assignments")).status(), email).toBe(401);
    await request.dispose();
  }
});
