/**
 * The settings page's webhooks: a lead is refused a hook to the cloud metadata address with
 * the reason, adds one to a public https address, sees its secret on request, and removes it.
 */
import { expect, test } from "@playwright/test";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

test("a lead adds a webhook in the study's settings; a metadata address is refused", async ({ page }, testInfo) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo/settings#webhooks");
  const section = page.locator("#webhooks");
  await section.getByLabel("Receiver URL").fill("https://169.254.169.254/latest/meta-data");
  await section.getByRole("button", { name: "Add webhook" }).click();
  await expect(section.getByRole("alert")).toContainText("169.254.169.254, a link-local address");
  await expect(section.getByTestId("webhook")).toHaveCount(0);

  await section.getByLabel("Receiver URL").fill("https://93.184.215.14/hooks/crjudge");
  await section.getByRole("button", { name: "Add webhook" }).click();
  const hook = section.getByTestId("webhook");
  await expect(hook).toContainText("https://93.184.215.14/hooks/crjudge");
  await expect(hook).toContainText("No deliveries yet.");
  await hook.getByRole("button", { name: "Show secret" }).click();
  const stored = await testDb().webhook.findFirstOrThrow({ where: { url: "https://93.184.215.14/hooks/crjudge" } });
  await expect(hook.getByTestId("webhook-secret")).toHaveText(stored.secret);
  await section.screenshot({ path: testInfo.outputPath("webhooks-section.png") });

  await hook.getByRole("button", { name: "Remove" }).click();
  await expect(section.getByTestId("webhook")).toHaveCount(0);
  expect(await testDb().webhook.count({ where: { id: stored.id } })).toBe(0);
});
