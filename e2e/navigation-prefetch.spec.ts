/**
 * Navigation links are not prefetched: the site header's links, a study's tools, its annotators
 * and items, and the way back from a study's sub-pages each target a dynamic page, which Next's
 * <Link> would have the server render (session and queries) on every page load. The studies list
 * keeps Next's default for its links to each study, which shows the prefetches are seen when they are sent.
 */
import { expect, test, type Page, type Request } from "@playwright/test";
import { E2E_ACCOUNTS, signIn } from "./fixtures";

const HEADER_LINKS = ["/", "/annotate", "/studies", "/admin/accounts"];
/** What links on a study's sub-page lead back to. */
const BACK = "/studies/demo";

/** The paths a load of `path` had prefetched (Next's router marks its prefetches with the Next-Router-Prefetch header), once the network is idle. */
async function prefetchedOnLoad(page: Page, path: string): Promise<string[]> {
  const prefetched: string[] = [];
  const onRequest = (request: Request) => {
    if (request.headers()["next-router-prefetch"]) prefetched.push(new URL(request.url()).pathname);
  };
  page.on("request", onRequest);
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  page.off("request", onRequest);
  return prefetched;
}

test("a lead's page loads prefetch no navigation link, and a study's overview prefetches nothing; the studies list still prefetches its studies", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  // The page signing in lands on sends its own prefetches: they are not counted below.
  await page.waitForLoadState("networkidle");
  expect(await prefetchedOnLoad(page, "/studies")).toContain("/studies/demo");
  // Nothing at all: not the header, the study's tools, its annotators or its items.
  expect(await prefetchedOnLoad(page, "/studies/demo")).toEqual([]);

  const annotatorPage = await page.locator('a[href^="/studies/demo/annotators/"]').first().getAttribute("href");
  expect(annotatorPage).toBeTruthy();
  const subPages = ["validity", "crscore-tables", "settings", "consolidate", "adjudicate", "assignments", "import"].map((tool) => `${BACK}/${tool}`);
  for (const subPage of [...subPages, annotatorPage!])
    expect((await prefetchedOnLoad(page, subPage)).filter((path) => [...HEADER_LINKS, BACK].includes(path)), subPage).toEqual([]);
  expect((await prefetchedOnLoad(page, "/annotate")).filter((path) => HEADER_LINKS.includes(path))).toEqual([]);
});
