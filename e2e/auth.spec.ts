import { expect, test } from "@playwright/test";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

test("a lead signs in and sees the demo study with its code changes", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await expect(page).toHaveURL(/\/studies$/);
  const row = page.getByTestId("study-row").filter({ hasText: "Demo" });
  await expect(row).toBeVisible();
  await row.getByRole("link").click();
  const changes = await testDb().codeChange.count({ where: { study: { slug: "demo" } } });
  await expect(page.getByTestId("code-change-row")).toHaveCount(changes);
  await expect(page.getByTestId("annotator-row").filter({ hasText: "ann1@demo.local" })).toBeVisible();
});

test("an annotator sees only their own assignments", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.ann1);
  await expect(page).toHaveURL(/\/annotate$/);
  const own = await testDb().assignment.count({ where: { annotator: { email: E2E_ACCOUNTS.ann1.email } } });
  expect(own).toBeGreaterThan(0);
  await expect(page.getByTestId("assignment-row")).toHaveCount(own);

  const response = await page.request.get("/api/me/assignments");
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { queues: { entries: { id: string }[] }[] };
  const ids = body.queues.flatMap((q) => q.entries.map((e) => e.id));
  const foreign = await testDb().assignment.count({ where: { id: { in: ids }, annotator: { email: { not: E2E_ACCOUNTS.ann1.email } } } });
  expect(ids).toHaveLength(own);
  expect(foreign).toBe(0);
});

test("an annotator is refused every lead page and route", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.ann2);
  for (const path of ["/studies", "/studies/demo", "/admin/accounts"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  }
  const api = await page.request.get("/api/studies");
  expect(api.status()).toBe(403);
});

test("signed-out visitors are sent to sign in and routes answer 401", async ({ page }) => {
  await page.goto("/studies");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fstudies$/);
  expect((await page.request.get("/api/studies")).status()).toBe(401);
  expect((await page.request.get("/api/me/assignments")).status()).toBe(401);
});

test("a wrong password gets a clear message and repeated attempts are slowed down", async ({ page }) => {
  const email = "slowdown@e2e.test";
  const { addAccount } = await import("@/lib/data/accounts");
  await addAccount({ email, role: "ANNOTATOR", password: "right-password" }, testDb());
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
  for (let attempt = 2; attempt <= 8; attempt++) {
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("form-error")).toBeVisible();
  }
  // Five attempts are checked at once; after eight, even the right password waits its turn.
  await page.getByLabel("Password").fill("right-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("form-error")).toContainText("Too many sign-in attempts. Try again in");
  expect((await testDb().signInThrottle.findUniqueOrThrow({ where: { key: `account:${email}` } })).attempts).toBe(9);
});

test("sign out ends the session", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto("/studies");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fstudies$/);
});

test("no page asks for the session in the background, so cookies cleared after a page's load stay cleared", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.ann1);
  const sessionRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/auth/session")) sessionRequests.push(request.url());
  });
  // The 403 page, then the cookies cleared at once, as a test switching accounts does; then the tab shown again.
  expect((await page.goto("/studies/demo"))?.status()).toBe(403);
  await page.context().clearCookies();
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await page.waitForLoadState("networkidle");
  expect(sessionRequests).toEqual([]);
  expect((await page.context().cookies()).map((c) => c.name).filter((name) => name.includes("session-token"))).toEqual([]);
  await page.goto("/signin");
  await expect(page.getByLabel("Email")).toBeVisible();
});

test("sign-in returns to the page that was asked for, never to another site", async ({ page }) => {
  await page.goto("/studies/demo/validity");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fstudies%2Fdemo%2Fvalidity$/);
  await page.getByLabel("Email").fill(E2E_ACCOUNTS.admin.email);
  await page.getByLabel("Password").fill(E2E_ACCOUNTS.admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/studies\/demo\/validity$/);
  // signed in, a foreign callback goes to the start page
  await page.goto("/signin?callbackUrl=https%3A%2F%2Fevil.example%2F");
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/(studies)?$/);
});

test("a lead creates an annotator account that can then sign in", async ({ page, browser }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/admin/accounts");
  const form = page.getByRole("form", { name: "Create account" });
  await form.getByLabel("Email").fill("new.annotator@e2e.test");
  await form.getByLabel("Name").fill("New Annotator");
  await form.getByLabel("Password").fill("annotator-pass-1");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("status")).toHaveText("Account created.");
  const stored = await testDb().account.findUniqueOrThrow({ where: { email: "new.annotator@e2e.test" } });
  expect(stored.role).toBe("ANNOTATOR");
  expect(stored.passwordHash).not.toContain("annotator-pass-1");

  const other = await browser.newContext();
  const annotatorPage = await other.newPage();
  await signIn(annotatorPage, { email: "new.annotator@e2e.test", password: "annotator-pass-1" });
  await expect(annotatorPage).toHaveURL(/\/annotate$/);
  await other.close();
});
