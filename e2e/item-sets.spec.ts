/**
 * Item sets in the browser: a lead creates a set from a file of external ids on the
 * item sets page, sees it listed, and restricts the agreement and validity dashboards to it with
 * the set picker; each report states the set and its size, with the same numbers as the CLI.
 */
import { expect, test } from "@playwright/test";
import type { AgreementReport } from "@/lib/analysis";
import { cli, expectComplete } from "./dashboard-helpers";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { watchPageErrors } from "./workspace-fixtures";

test("a lead creates an item set from a file and restricts the agreement and validity dashboards to it", async ({ page }) => {
  const errors = watchPageErrors(page);
  const changes = await testDb().codeChange.findMany({ where: { study: { slug: "demo" } }, orderBy: { position: "asc" }, take: 3, select: { externalId: true, reviews: { select: { externalId: true }, take: 1 } } });
  const lines = ["# three changes of the demo", changes[0].externalId, changes[1].externalId, `${changes[2].externalId}/${changes[2].reviews[0].externalId}`];
  const name = `e2e set ${Date.now()}`;

  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo");
  await page.getByRole("navigation", { name: "Study tools" }).getByRole("link", { name: "Item sets" }).click();
  await expect(page.getByRole("heading", { name: "Item sets", level: 1 })).toBeVisible();
  // The demo's assignment plan stored its reliability set.
  await expect(page.getByTestId("item-set-row").filter({ hasText: "reliability" }).first()).toContainText("assignment plan");

  const form = page.getByRole("form", { name: "Create item set" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Kind").selectOption("CALIBRATION");
  await form.getByLabel("File of external ids").setInputFiles({ name: "batch.txt", mimeType: "text/plain", buffer: Buffer.from(lines.join("\n")) });
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form.getByRole("status")).toHaveText("Item set created.");
  const row = page.getByTestId("item-set-row").filter({ hasText: name });
  await expect(row).toContainText("calibration batch");
  await expect(row.locator("td").nth(2)).toHaveText("3");
  await expect(row).toContainText("batch.txt");

  // An id that names nothing is refused with the id listed.
  await form.getByLabel("Name").fill(`${name} bad`);
  await form.getByLabel("File of external ids").setInputFiles({ name: "bad.txt", mimeType: "text/plain", buffer: Buffer.from("no-such-change\n") });
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form.getByRole("alert")).toContainText("no-such-change");

  await row.getByRole("link", { name: "agreement" }).click();
  await expectComplete(page, "agreement-report");
  await expect(page.getByTestId("item-set")).toHaveText(`Items: item set “${name}” (calibration batch, 3 ids)`);
  await expect(page.getByLabel("Item set")).toHaveValue(name);
  const expected = await cli<AgreementReport>(["agreement", "--study", "demo", "--item-set", name, "--json"]);
  expect(expected.itemSet).toEqual({ name, kind: "calibration batch", size: 3, unmatched: [] });
  const relevance = expected.tasks.find((t) => t.task === "REVIEW_RATING")?.questions.find((q) => q.question === "relevance");
  await expect(page.getByTestId("question-review_rating-relevance").locator("header p")).toContainText(`${relevance?.counts.items} items, ${relevance?.counts.ratings} ratings`);

  // Back to every item with the picker.
  await page.getByLabel("Item set").selectOption("");
  await page.getByRole("form", { name: "Report settings" }).getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("item-set")).toHaveText("Items: all items of the study");

  await page.goto(`/studies/demo/validity?${new URLSearchParams({ set: name })}`);
  await expect(page.getByLabel("Item set")).toHaveValue(name);
  expect(errors).toEqual([]);

  await page.goto("/studies/demo/item-sets");
  await page.getByRole("button", { name: `Delete item set ${name}` }).click();
  await expect(page.getByTestId("item-set-row").filter({ hasText: name })).toHaveCount(0);
});

test("a lead picks reviews from the study's table (system and text filters), selects rows and saves them as a set", async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchPageErrors(page);
  const db = testDb();
  // a system of the demo with reviews on more than one change, and its reviews in study order
  const [{ system }] = await db.review.groupBy({ by: ["system"], where: { codeChange: { study: { slug: "demo" } }, isReference: false }, _count: { _all: true }, orderBy: [{ _count: { id: "desc" } }, { system: "asc" }], take: 1 });
  const reviews = await db.review.findMany({ where: { system, codeChange: { study: { slug: "demo" } } }, orderBy: [{ codeChange: { position: "asc" } }, { codeChange: { externalId: "asc" } }, { position: "asc" }, { externalId: "asc" }], select: { externalId: true, codeChange: { select: { externalId: true } } } });
  const ids = reviews.map((r) => `${r.codeChange.externalId}/${r.externalId}`);
  const name = `e2e picked ${Date.now()}`;

  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo/item-sets");
  const filter = page.getByRole("form", { name: "Filter the study's items" });
  await filter.getByLabel("Table").selectOption("review");
  await filter.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/table=review/);
  await filter.getByLabel("System").selectOption(system);
  await filter.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("member-table-count")).toHaveText(`${ids.length} reviews`);
  await expect(page.getByTestId("member-table-row").locator("td:nth-child(2)")).toHaveText(ids);

  // two rows chosen by hand
  await page.getByLabel(`Select ${ids[0]}`).check();
  await page.getByLabel(`Select ${ids[1]}`).check();
  const save = page.getByRole("form", { name: "Save selection as an item set" });
  await save.getByLabel("Name").fill(name);
  await save.getByLabel("Kind").selectOption("HELD_OUT");
  await save.getByRole("button", { name: "Save 2 reviews as a set" }).click();
  await expect(save.getByRole("status")).toHaveText("Item set created with 2 reviews.");
  const row = page.getByTestId("item-set-row").filter({ hasText: name });
  await expect(row).toContainText("held-out");
  await expect(row).toContainText(`table of reviews (system ${system}): 2 selected`);
  const stored = await db.itemSet.findFirstOrThrow({ where: { name, study: { slug: "demo" } }, include: { members: { orderBy: { position: "asc" }, include: { codeChange: true, review: true } } } });
  expect(stored.members.map((m) => `${m.codeChange.externalId}/${m.review!.externalId}`)).toEqual(ids.slice(0, 2));

  // a text filter, then every row shown
  const word = (await db.review.findFirstOrThrow({ where: { system, codeChange: { externalId: reviews[0].codeChange.externalId, study: { slug: "demo" } } } })).text.split(/\W+/).find((w) => w.length > 5)!;
  await filter.getByLabel("Text contains").fill(word);
  await filter.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`text=${encodeURIComponent(word)}`));
  const shown = await page.getByTestId("member-table-row").count();
  expect(shown).toBeGreaterThan(0);
  await page.getByLabel("Select every row shown").check();
  await save.getByLabel("Name").fill(`${name} by text`);
  await save.getByRole("button", { name: new RegExp(`^Save ${shown} reviews? as a set$`) }).click();
  await expect(save.getByRole("status")).toContainText(`Item set created with ${shown} review`);
  await expect(page.getByTestId("item-set-row").filter({ hasText: `${name} by text` })).toContainText(`text “${word}”): ${shown} selected`);
  expect(errors).toEqual([]);

  for (const n of [name, `${name} by text`]) await page.getByRole("button", { name: `Delete item set ${n}`, exact: true }).click();
  await expect(page.getByTestId("item-set-row").filter({ hasText: name })).toHaveCount(0);
});
