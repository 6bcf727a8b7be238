/**
 * API tokens against the real server: made on the account page and shown once; a read token
 * fetches the agreement report and is refused an import; a token never gets past its account's
 * role; revoked and expired tokens get 401; pages and server actions refuse tokens; and
 * /api/openapi.json describes every route the app serves.
 */
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { existingRoutes } from "./app-entries";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

async function withToken(token: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
}

/** A token made as the account page does (the data layer's own function), `daysAgo` in the past. */
async function tokenOf(email: string, scopes: string[], daysAgo = 0, expiresInDays = 30): Promise<{ id: string; token: string }> {
  process.env.DATABASE_URL ??= process.env.E2E_DATABASE_URL;
  const { createApiToken } = await import("@/lib/data/api-tokens");
  const { newTokenSchema } = await import("@/lib/auth/api-token");
  const account = await testDb().account.findUniqueOrThrow({ where: { email } });
  return createApiToken(account.id, newTokenSchema.parse({ name: `e2e ${scopes.join("+")}`, scopes, expiresInDays }), new Date(Date.now() - daysAgo * 86_400_000));
}

const importForm = () => ({
  format: "jsonl",
  dryRun: "true",
  files: { name: "changes.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(`${JSON.stringify({ id: "token-change", diff: "@@ -1 +1 @@\n-a\n+b\n", reviews: [{ id: "r1", system: "s", text: "ok" }] })}\n`) },
});

test("a token made on the account page is shown once, reads the agreement report, is refused an import, and gets 401 once revoked", async ({ page }, testInfo) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.getByTestId("current-account").click();
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
  await page.getByLabel("Name").fill("nightly report");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText("Copy it now")).toBeVisible();
  const token = (await page.getByTestId("new-token").textContent())!.trim();
  expect(token).toMatch(/^crj_[A-Za-z0-9_-]{43}$/);
  const row = page.getByTestId("token-row").filter({ hasText: "nightly report" });
  await expect(row).toContainText("read");
  await expect(row).toContainText(`${token.slice(0, 8)}…`);
  await page.screenshot({ path: testInfo.outputPath("account-tokens.png"), fullPage: true });
  await page.reload();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  await expect(page.getByText(token)).toHaveCount(0);

  const api = await withToken(token);
  const report = await api.get("/api/studies/demo/agreement?resamples=0");
  expect(report.status(), await report.text()).toBe(200);
  expect(JSON.stringify(await report.json())).toMatch(/krippendorff|fleiss|cohen/i);
  const before = await testDb().importRun.count();
  const refused = await api.post("/api/studies/demo/import", { multipart: importForm() });
  expect(refused.status()).toBe(403);
  expect((await refused.json()) as { error: string }).toMatchObject({ code: "FORBIDDEN", error: expect.stringMatching(/import scope/) });
  expect(await testDb().importRun.count()).toBe(before);

  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("revoked");
  const afterRevoke = await api.get("/api/studies/demo/agreement?resamples=0");
  expect(afterRevoke.status()).toBe(401);
  expect(((await afterRevoke.json()) as { error: string }).error).toMatch(/unknown, revoked or expired/);
  await api.dispose();
});

test("a token acts within its scopes and its account's role; an expired or unknown token gets 401", async () => {
  const importer = await withToken((await tokenOf(E2E_ACCOUNTS.lead.email, ["read", "import"])).token);
  const dryRun = await importer.post("/api/studies/demo/import", { multipart: importForm() });
  expect(dryRun.status()).toBe(200);
  expect(await dryRun.text()).toMatch(/"result"/);
  await importer.dispose();

  // An annotator's read token does not read a lead's report, nor another annotator's queue.
  const annotator = await withToken((await tokenOf(E2E_ACCOUNTS.ann1.email, ["read", "assign"])).token);
  expect((await annotator.get("/api/studies/demo/agreement?resamples=0")).status()).toBe(403);
  const queues = await annotator.get("/api/me/assignments");
  expect(queues.status()).toBe(200);
  await annotator.dispose();
  const readOnly = await withToken((await tokenOf(E2E_ACCOUNTS.ann1.email, ["read"])).token);
  expect((await readOnly.get("/api/me/assignments")).status()).toBe(403);
  await readOnly.dispose();

  const expired = await withToken((await tokenOf(E2E_ACCOUNTS.lead.email, ["read"], 2, 1)).token);
  expect((await expired.get("/api/studies")).status()).toBe(401);
  await expired.dispose();
  const unknown = await withToken(`crj_${"A".repeat(43)}`);
  expect((await unknown.get("/api/studies")).status()).toBe(401);
  await unknown.dispose();
  const malformed = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL, extraHTTPHeaders: { authorization: "Bearer nonsense" } });
  expect((await malformed.get("/api/studies")).status()).toBe(401);
  await malformed.dispose();
});

test("pages and server actions refuse a token, even with the session beside it", async ({ page, baseURL }) => {
  const { token } = await tokenOf(E2E_ACCOUNTS.lead.email, ["read", "import", "assign"]);
  const api = await withToken(token);
  for (const url of ["/studies/demo", "/account", "/"]) {
    const response = await api.get(url, { maxRedirects: 0 });
    expect(response.status(), url).toBe(401);
    expect(((await response.json()) as { error: string }).error).toMatch(/not by pages or server actions/);
  }
  // A server action as the page's script calls it, with the token instead of a session.
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/account");
  const captured = page.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]);
  await page.getByLabel("Name").fill("captured");
  await page.getByRole("button", { name: "Create token" }).click();
  const action = await captured;
  await expect(page.getByTestId("new-token")).toBeVisible();
  const before = await testDb().apiToken.count();
  const replayed = await api.post("/account", { headers: { "next-action": action.headers()["next-action"], "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: baseURL! }, data: action.postData() ?? "" });
  expect(replayed.status()).toBe(401);
  // and with the session's cookies beside the token
  const both = await page.request.post("/account", { headers: { authorization: `Bearer ${token}`, "next-action": action.headers()["next-action"], "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: baseURL! }, data: action.postData() ?? "" });
  expect(both.status()).toBe(401);
  expect(await testDb().apiToken.count()).toBe(before);
  await api.dispose();
});

test("/api/openapi.json describes every JSON route the app serves", async ({ request }) => {
  const response = await request.get("/api/openapi.json");
  expect(response.status()).toBe(200);
  const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
  expect(document.openapi).toBe("3.1.0");
  const documented = Object.entries(document.paths).flatMap(([url, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${url}`));
  // the JSON routes: those under /api (a page's route handler, as /join/SLUG's redirect, is no API)
  const served = existingRoutes()
    .filter((r) => r.split(" ")[1].startsWith("/api/"))
    .map((r) => r.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, "{$1}"));
  expect(documented.sort()).toEqual(served.sort());
});
