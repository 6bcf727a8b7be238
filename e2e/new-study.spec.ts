/**
 * The New study form in the browser: the lead opens it from the studies list, the slug follows
 * the name until the lead edits it, bad fields are refused with the field and reason (and create
 * nothing), a taken slug is refused, and a good form makes the empty study, with its name and
 * settings, and opens its page.
 */
import { expect, test } from "@playwright/test";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { watchPageErrors } from "./workspace-fixtures";

test("a lead creates a study without an import: name, suggested slug, task types and Likert scale", async ({ page }) => {
  const errors = watchPageErrors(page);
  const stamp = Date.now();
  const name = `Calibration pilot ${stamp}`;
  const slug = `calibration-pilot-${stamp}`;
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies");
  await page.getByRole("link", { name: "New study" }).click();
  await expect(page.getByRole("heading", { name: "New study", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "New study" });

  // the slug follows the name
  await form.getByLabel("Name").fill(name);
  await expect(form.getByLabel("Slug")).toHaveValue(slug);

  // without a task type, and with an inverted scale: refused with the reasons, nothing created
  await form.getByLabel("Scale from").fill("4");
  await form.getByLabel("to", { exact: true }).fill("2");
  await form.getByRole("button", { name: "Create study" }).click();
  await expect(form.getByRole("alert")).toContainText("tasks: choose at least one task");
  await expect(form.getByRole("alert")).toContainText("likertMax: the top of the Likert scale must be above its bottom");
  expect(await testDb().study.count({ where: { slug } })).toBe(0);

  // the demo's slug is taken
  await form.getByLabel("Review rating").check();
  await form.getByLabel("Reference-based grading").check();
  await form.getByLabel("Scale from").fill("0");
  await form.getByLabel("to", { exact: true }).fill("4");
  await form.getByLabel("Likert dimensions, in order, separated by commas").fill("relevance, clarity");
  await form.getByLabel("Annotators per item").fill("3");
  await form.getByLabel("Slug").fill("demo");
  await form.getByRole("button", { name: "Create study" }).click();
  await expect(form.getByRole("alert")).toHaveText('The slug "demo" is taken by another study: choose another.');
  // an edited slug no longer follows the name
  await form.getByLabel("Slug").fill(slug);
  await form.getByLabel("Name").fill(`${name} `);
  await expect(form.getByLabel("Slug")).toHaveValue(slug);

  await form.getByRole("button", { name: "Create study" }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${slug}$`));
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  const study = await testDb().study.findUniqueOrThrow({ where: { slug }, include: { owner: { select: { email: true } } } });
  expect(study).toMatchObject({ name, tasks: ["REVIEW_RATING", "REFERENCE_GRADING"], likertDimensions: ["relevance", "clarity"], likertMin: 0, likertMax: 4, annotatorsPerItem: 3, owner: { email: E2E_ACCOUNTS.lead.email } });

  // listed among the lead's studies, by its name
  await page.goto("/studies");
  await expect(page.getByTestId("study-row").filter({ hasText: name })).toContainText("Review rating, Reference-based grading");
  expect(errors).toEqual([]);
});
