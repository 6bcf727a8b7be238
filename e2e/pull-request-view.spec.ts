/**
 * A pull request with its review comments in place, as the demo's lead sees shop-api#118: the
 * file tree with statuses and comment counts, each comment inline at its line on its side with
 * its range marked (the whole-file one at its file's head, the author's reply under the comment
 * it answers), Markdown rendered as text and code; j/k from comment to comment across files with
 * focus and an announcement; split view; another lead's study answers 404. Screenshots in
 * test-results/pull-request/.
 */
import { expect, test } from "@playwright/test";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

const URL = `/studies/demo/pull-requests/${encodeURIComponent("shop-api#118")}`;
const shot = (name: string) => `test-results/pull-request/${name}.png`;

test("a lead reads shop-api#118's review comments in place and walks them with j and k", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo");
  await page.getByRole("link", { name: "Cursor pagination for GET /orders" }).first().click();
  await expect(page).toHaveURL(URL);
  const view = page.getByTestId("pull-request-view");
  await expect(view.getByTestId("pr-counts")).toHaveText("3 files · 7 comments");

  // The file tree: three modified files with their comment counts.
  const tree = page.getByTestId("file-tree-entry");
  await expect(tree).toHaveCount(3);
  await expect(tree.filter({ hasText: "orders.test.js" }).getByTestId("file-comment-count")).toHaveText("1");
  const counts = await tree.evaluateAll((links) => links.map((a) => [a.querySelector(".font-mono.text-blue-700")?.textContent, a.querySelector('[data-testid="file-comment-count"]')?.textContent ?? "0"]));
  expect(counts.map(([, n]) => Number(n)).reduce((a, b) => a + b, 0)).toBe(7);

  // The human's comment with the author's reply threaded under it, at its line of the new file, the line marked.
  const db = testDb();
  const stored = await db.reviewComment.findMany({ where: { pullRequest: { externalId: "shop-api#118", study: { slug: "demo" } } } });
  const byExternal = new Map(stored.map((c) => [c.externalId, c]));
  const human = byExternal.get("1180001")!;
  const thread = page.getByTestId("comment-thread").filter({ has: page.locator(`[data-comment-id="${human.id}"]`) });
  await expect(thread.getByTestId("review-comment")).toHaveCount(2);
  await expect(thread.getByTestId("review-comment").nth(1)).toContainText("Good catch");
  await expect(thread.getByTestId("review-comment").first()).toContainText("maria-reviews");
  // Markdown: `cursor` is code, not backticks.
  await expect(thread.getByTestId("comment-body").first().locator("code").first()).toHaveText("cursor");
  // The row just above the thread shows the commented line's number on the new side.
  const rowAbove = await thread.evaluate((el) => (el.previousElementSibling?.lastElementChild as HTMLElement | null)?.textContent ?? "");
  expect(rowAbove).toContain(String(human.line));
  expect(rowAbove).toContain("JSON.parse(Buffer.from(cursor");

  // The whole-file comment is at its file's head, before the diff.
  const wholeFile = byExternal.get("1180005")!;
  const testsFile = page.getByTestId("pr-file").filter({ hasText: "orders.test.js" });
  await testsFile.scrollIntoViewIfNeeded();
  await expect(testsFile.locator(`[data-comment-id="${wholeFile.id}"]`)).toContainText("the whole file");

  // j walks every comment once, down the page: file by file, and within a file in the order the diff shows them (an
  // old-side line among the new lines around it, a reply under its comment).
  await page.getByRole("heading", { name: /Pull request/ }).click();
  const seen: { id: string; file: number; y: number }[] = [];
  for (let i = 0; i < stored.length; i++) {
    await page.keyboard.press("j");
    const focused = page.locator('[data-testid="review-comment"][aria-current="true"]');
    await expect(focused).toHaveCount(1);
    await expect(focused).toBeFocused();
    await expect(focused).toBeInViewport();
    await expect(page.getByTestId("comment-announcement")).toContainText(`Comment ${i + 1} of 7`);
    seen.push(await focused.evaluate((el) => ({ id: el.getAttribute("data-comment-id")!, file: Number(el.closest<HTMLElement>('[data-testid="pr-file"]')!.dataset.index), y: el.getBoundingClientRect().top + window.scrollY })));
    if (seen.at(-1)!.id === byExternal.get("1180004")!.id) await page.screenshot({ path: shot("comment-focused") });
  }
  expect(new Set(seen.map((s) => s.id)).size).toBe(7);
  const sorted = seen.slice().sort((a, b) => a.file - b.file || a.y - b.y);
  expect(seen.map((s) => s.id)).toEqual(sorted.map((s) => s.id));
  const expected = seen.map((s) => s.id);
  // The old-side comment is not first in its file though its line number is the smallest: it follows the rows around it.
  expect(expected.indexOf(byExternal.get("1180007")!.id)).toBeGreaterThan(expected.indexOf(byExternal.get("1180002")!.id));
  // At the last comment j stays; k goes back.
  await page.keyboard.press("j");
  await expect(page.locator('[aria-current="true"][data-testid="review-comment"]')).toHaveAttribute("data-comment-id", expected.at(-1)!);
  await page.keyboard.press("k");
  await expect(page.locator('[aria-current="true"][data-testid="review-comment"]')).toHaveAttribute("data-comment-id", expected.at(-2)!);

  // The focused comment's range is marked on its lines: the range comment of coderabbit covers several lines.
  for (let i = 0; i < 10 && (await page.locator('[aria-current="true"][data-testid="review-comment"]').getAttribute("data-comment-id")) !== byExternal.get("1180004")!.id; i++) await page.keyboard.press("k");
  const range = byExternal.get("1180004")!;
  await expect(page.locator(".dv-cf")).toHaveCount(range.line! - range.startLine! + 1);
  await page.screenshot({ path: shot("pull-request") });

  // v: split; the thread still follows its line, on the new side.
  await page.keyboard.press("v");
  await expect(page.getByTestId("diff-body").first()).toHaveAttribute("data-mode", "split");
  await expect(page.locator(`[data-comment-id="${human.id}"]`)).toBeVisible();
  await page.locator(`[data-comment-id="${human.id}"]`).scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("split") });

  // ? lists the keys.
  await page.keyboard.press("?");
  await expect(page.getByTestId("shortcuts")).toContainText("Next review comment");
});

test("a pull request of a study the lead does not lead answers 404, and an annotator cannot open the lead's view", async ({ page }) => {
  const db = testDb();
  const other = await db.account.create({ data: { email: `other-lead-${Date.now()}@e2e.local`, name: "Other lead", role: "LEAD", passwordHash: "x" } });
  const study = await db.study.create({ data: { slug: `pr-view-other-${Date.now()}`, name: "Other", ownerId: other.id } });
  await db.pullRequest.create({ data: { studyId: study.id, externalId: "secret#1", title: "Secret" } });
  await signIn(page, E2E_ACCOUNTS.lead);
  const response = await page.goto(`/studies/${study.slug}/pull-requests/${encodeURIComponent("secret#1")}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Secret")).toHaveCount(0);
  const annotator = await page.context().browser()!.newPage();
  await signIn(annotator, E2E_ACCOUNTS.ann1);
  const asAnnotator = await annotator.goto(URL);
  expect([403, 404]).toContain(asAnnotator?.status());
  await expect(annotator.getByTestId("pull-request-view")).toHaveCount(0);
  await annotator.close();
});
