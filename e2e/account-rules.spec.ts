import { expect, test, type Browser, type Page } from "@playwright/test";
import { addAccount } from "@/lib/data/accounts";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

/** The admin's password, role, state and session version, to prove a refused call changed nothing. */
async function adminRow() {
  return testDb().account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.admin.email }, select: { id: true, passwordHash: true, role: true, active: true, sessionVersion: true } });
}

/** Points a form of the annotator's row at another account, as a forged request would. */
async function retarget(page: Page, rowEmail: string, formLabel: string, accountId: string) {
  const row = page.getByTestId("account-row").filter({ hasText: rowEmail });
  const form = formLabel === "Deactivate" ? row.locator("form").filter({ has: page.getByRole("button", { name: "Deactivate" }) }) : row.getByRole("form", { name: formLabel });
  await form.locator('input[name="accountId"]').evaluate((input, id) => ((input as HTMLInputElement).value = id), accountId);
  return form;
}

async function signedInAs(browser: Browser, account: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, account);
  return { context, page };
}

test("a lead's account actions aimed at the admin's id leave the admin unchanged", async ({ page }) => {
  const before = await adminRow();
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/admin/accounts");
  await expect(page.getByTestId("account-row").filter({ hasText: E2E_ACCOUNTS.admin.email })).toHaveCount(0);

  const reset = await retarget(page, E2E_ACCOUNTS.ann1.email, "Reset password", before.id);
  await reset.getByLabel("New password").fill("taken-over-1");
  await reset.getByRole("button", { name: "Reset password" }).click();
  await expect(reset.getByRole("alert")).toHaveText("No such account, or not one you may manage.");

  const deactivate = await retarget(page, E2E_ACCOUNTS.ann1.email, "Deactivate", before.id);
  await deactivate.getByRole("button", { name: "Deactivate" }).click();
  await expect(deactivate.getByRole("alert")).toHaveText("No such account, or not one you may manage.");

  expect(await adminRow()).toEqual(before);
});

test("a password reset and a deactivation end the account's open sessions", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const accounts = [
    { email: "session-reset@e2e.test", password: "first-password-1" },
    { email: "session-off@e2e.test", password: "first-password-1" },
  ];
  for (const account of accounts) await addAccount({ ...account, role: "ANNOTATOR" }, testDb());
  const [reset, off] = await Promise.all(accounts.map((account) => signedInAs(browser, account)));
  for (const { page: annotator } of [reset, off]) expect((await annotator.request.get("/api/me/assignments")).status()).toBe(200);

  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/admin/accounts");
  const resetForm = page.getByTestId("account-row").filter({ hasText: accounts[0].email }).getByRole("form", { name: "Reset password" });
  await resetForm.getByLabel("New password").fill("second-password-1");
  await resetForm.getByRole("button", { name: "Reset password" }).click();
  await expect(resetForm.getByRole("status")).toHaveText("Password changed.");
  await page.getByTestId("account-row").filter({ hasText: accounts[1].email }).getByRole("button", { name: "Deactivate" }).click();
  await expect(page.getByTestId("account-row").filter({ hasText: accounts[1].email })).toContainText("deactivated");

  for (const { page: annotator } of [reset, off]) {
    expect((await annotator.request.get("/api/me/assignments")).status()).toBe(401);
    await annotator.goto("/annotate");
    await expect(annotator).toHaveURL(/\/signin\?callbackUrl=%2Fannotate$/);
  }
  // The new password signs in again; the old one does not.
  await signIn(reset.page, { email: accounts[0].email, password: "second-password-1" });
  expect((await reset.page.request.get("/api/me/assignments")).status()).toBe(200);
  await Promise.all([reset.context.close(), off.context.close()]);
});
