/** Shared helpers for browser tests: sign in through the form, and read the database. */
import { expect, type Page } from "@playwright/test";
import { createClient, type PrismaClient } from "@/lib/db/client";

export { E2E_ACCOUNTS } from "./accounts";

/** Signs in through the form; `base` targets another server than the configured one. */
export async function signIn(page: Page, account: { email: string; password: string }, base = ""): Promise<void> {
  await page.goto(`${base}/signin`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-account")).toBeVisible();
}

let client: PrismaClient | undefined;

/** The test database the server under test uses (set by global-setup). */
export function testDb(): PrismaClient {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL is not set; run through playwright.config.ts");
  client ??= createClient(url);
  return client;
}
