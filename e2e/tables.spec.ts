/**
 * DataTable in the browser: a table is named by its caption, and a sortable column's header
 * button orders the rows the server rendered, ascending then descending, saying so in aria-sort.
 */
import { expect, test } from "@playwright/test";
import { E2E_ACCOUNTS, signIn } from "./fixtures";

test("a lead sorts a study's code changes by their reviews, both ways, and the header says the order", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo");
  const table = page.getByRole("table", { name: "Code changes" });
  const reviews = () => table.locator('tbody td[data-col="reviews"]').allInnerTexts();
  const header = table.getByRole("columnheader", { name: "Reviews" });
  const given = (await reviews()).map(Number);
  expect(given.length).toBeGreaterThan(2);
  await expect(header).not.toHaveAttribute("aria-sort");

  await header.getByRole("button", { name: "Reviews", exact: true }).click();
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  expect((await reviews()).map(Number)).toEqual([...given].sort((a, b) => a - b));

  await header.getByRole("button", { name: "Reviews", exact: true }).click();
  await expect(header).toHaveAttribute("aria-sort", "descending");
  expect((await reviews()).map(Number)).toEqual([...given].sort((a, b) => b - a));
  // Each row keeps its cells: the item in the first row is the one with the most reviews.
  await expect(table.getByTestId("code-change-row").first().locator('td[data-col="reviews"]')).toHaveText(String(Math.max(...given)));
});
