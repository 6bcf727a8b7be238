/**
 * Adjudication in the browser: a lead opens the queue of grade disagreements of the
 * documented example, compares the two annotators' grades side by side, decides the consensus
 * grade with a reason, sees it in the history, and downloads the GradedReviews workbook with
 * the consensus grades (opened with pandas when Debian's python3-pandas and python3-openpyxl are
 * installed). An unknown annotator is a readable 400, not a cancelled download.
 *
 * Where the annotators agree, disagree and tie is marked on the adjudication and consolidation
 * pages; a 1-1 tie has no default; a save shows the decided value in the panel's header at once;
 * after a save, the key n (and a link) moves to the next open disagreement.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import ExcelJS from "exceljs";
import { runImport } from "@/lib/data/imports";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

const STUDY = "adjudication-e2e";
/** The same example with a second grade disagreement and a second tied claim, for moving from one to the next. */
const NEXT_STUDY = "adjudication-next-e2e";
// Debian's interpreter, where python3-pandas and python3-openpyxl install (a pyenv python3 may come first on PATH).
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";

function pandasAvailable(): boolean {
  try {
    execFileSync(PYTHON, ["-c", "import pandas, openpyxl"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The documented example as a study of the e2e lead. */
async function importExample(slug: string): Promise<string | null> {
  const db = testDb();
  if (await db.study.findUnique({ where: { slug } })) return null;
  const result = await runImport({ study: slug, format: "jsonl", files: [{ name: "code-changes.jsonl", content: readFileSync("docs/examples/code-changes.jsonl") }] }, db);
  if (result.status === "refused") throw new Error(`import refused: ${JSON.stringify(result.errors.slice(0, 3))}`);
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  return (await db.study.update({ where: { slug }, data: { ownerId: lead.id } })).id;
}

test.beforeAll(async () => {
  await importExample(STUDY);
  const studyId = await importExample(NEXT_STUDY);
  if (studyId === null) return;
  const db = testDb();
  // grace now grades Auger 5 (ada 4): a second 1-1 grade tie after Tufano's (ada 3, grace 2)
  const grace = await db.account.findFirstOrThrow({ where: { name: "grace" } });
  const ada = await db.account.findFirstOrThrow({ where: { name: "ada" } });
  await db.referenceGrade.updateMany({ where: { annotatorId: grace.id, review: { externalId: "Auger", codeChange: { studyId } } }, data: { grade: 5 } });
  // js-pr7-b's claim, which nobody coded: ada finds it correct, grace incomplete, another tie
  const claim = await db.pseudoReference.findFirstOrThrow({ where: { externalId: "c1", codeChange: { studyId, externalId: "js-pr7-b" } } });
  await db.claimJudgement.createMany({ data: [{ annotatorId: ada.id, pseudoReferenceId: claim.id, code: "CORRECT" }, { annotatorId: grace.id, pseudoReferenceId: claim.id, code: "INCOMPLETE" }] });
});

test("a lead adjudicates a grade disagreement and downloads the workbook with the consensus grade", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${STUDY}/adjudicate?task=REFERENCE_GRADING`);
  const open = page.getByTestId("open-disagreement");
  await expect(open).toHaveCount(1);
  await expect(open).toContainText("ada: 3");
  await expect(open).toContainText("grace: 2");
  // one annotator each way: marked as a tie
  await expect(open).toHaveAttribute("data-tie", "true");
  await expect(open.getByTestId("split")).toHaveText("tie 1–1: choose");
  await open.getByRole("link").click();

  await expect(page.getByTestId("annotation-row")).toHaveCount(2);
  await expect(page.getByTestId("split-grade")).toHaveText("tie 1–1: no majority");
  const form = page.getByRole("form", { name: /Consensus: Grade/ });
  // no value is chosen for the lead
  await expect(form.getByTestId("consensus-split")).toHaveText("tie 1–1: no majority: choose the value, there is no default");
  for (const grade of ["1", "2", "3", "4", "5"]) await expect(form.getByLabel(grade, { exact: true })).not.toBeChecked();
  await form.getByLabel("3", { exact: true }).check();
  await form.getByLabel("Reason").fill("the review asks the reference's question");
  await expect(form.getByTestId("consensus-current")).toHaveText("no consensus yet");
  // The header as the panel shows it when "Saved" appears (same DOM change), before the page's refresh lands.
  await form.evaluate((el: HTMLElement) => {
    new MutationObserver((_, observer) => {
      if (!el.querySelector('[role="status"]')) return;
      el.dataset.headerAtSave = el.querySelector('[data-testid="consensus-current"]')?.textContent ?? "";
      observer.disconnect();
    }).observe(el, { childList: true, subtree: true, characterData: true });
  });
  await form.getByRole("button", { name: "Save consensus" }).click();
  await expect(form.getByRole("status")).toContainText("version 1");
  await expect(form).toHaveAttribute("data-header-at-save", "decided: 3 (version 1)");
  await expect(page.getByTestId("history-entry")).toContainText("the review asks the reference's question");
  // the only grade disagreement is decided
  await expect(page.getByTestId("next-disagreement")).toHaveText("No other disagreement is open. Back to the queue");

  await page.goto(`/studies/${STUDY}/adjudicate?task=REFERENCE_GRADING`);
  await expect(page.getByTestId("open-disagreement")).toHaveCount(0);
  await expect(page.getByTestId("adjudicated-item")).toContainText("3");

  await page.goto(`/studies/${STUDY}`);
  const workbookForm = page.getByRole("form", { name: "GradedReviews workbook" });
  await workbookForm.getByRole("combobox").selectOption("");
  const downloading = page.waitForEvent("download");
  await workbookForm.getByRole("button", { name: "Download" }).click();
  const file = join(mkdtempSync(join(tmpdir(), "adjudication-")), "workbook.xlsx");
  await (await downloading).saveAs(file);

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.getWorksheet("工作表1")!;
  const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1);
  expect(["Tufano's", "Auger"].map((system) => sheet.getRow(5).getCell(header.indexOf(system) + 2).value)).toEqual([3, 4]);

  if (pandasAvailable()) {
    const script = join(tmpdir(), `read-workbook-${Date.now()}.py`);
    // each system's grade is the column after its review (Grade, Grade.1, … as pandas names them)
    writeFileSync(
      script,
      'import sys, json, pandas\ndf = pandas.read_excel(sys.argv[1])\ncols = list(df.columns)\nrow = df[df["ID"] == "java-17"].iloc[0]\nprint(json.dumps([int(row[cols[cols.index(s) + 1]]) for s in ["Tufano\'s", "Auger"]]))\n',
    );
    expect(JSON.parse(execFileSync(PYTHON, [script, file], { encoding: "utf8" }))).toEqual([3, 4]);
  } else if (process.env.CI === "true") {
    throw new Error("python3-pandas and python3-openpyxl are needed to open the workbook in pandas");
  } else {
    console.warn("skipped opening the workbook in pandas: install Debian's python3-pandas and python3-openpyxl");
  }

  const refused = await page.request.get(`/api/studies/${STUDY}/export?format=gradedreviews&annotator=nobody`);
  expect(refused.status()).toBe(400);
  expect((await refused.json()).error).toContain("graders: ada, grace");
});

test("after deciding a tie, the key n moves to the next grade disagreement; typing n in the reason does not", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${NEXT_STUDY}/adjudicate?task=REFERENCE_GRADING`);
  const open = page.getByTestId("open-disagreement");
  await expect(open).toHaveCount(2);
  await expect(open.getByTestId("split")).toHaveText(["tie 1–1: choose", "tie 1–1: choose"]);
  await open.filter({ hasText: "Tufano's" }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Tufano's");
  // the agreeing annotators' cells and the split are marked; the next disagreement is linked before any save
  await expect(page.getByTestId("next-disagreement")).toHaveText(/Next disagreement: java-17 · Auger/);

  const form = page.getByRole("form", { name: /Consensus: Grade/ });
  await form.getByLabel("2", { exact: true }).check();
  await form.getByLabel("Reason").fill("no question of the reference is asked");
  await form.getByRole("button", { name: "Save consensus" }).click();
  await expect(form.getByRole("status")).toContainText("version 1");
  // the link to the next disagreement has the focus: the key n (or Enter) moves on
  await expect(page.getByTestId("next-disagreement")).toBeFocused();
  await page.keyboard.press("n");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Auger");
  await expect(page.getByTestId("split-grade")).toHaveText("tie 1–1: no majority");

  // in the reason box, n is a letter
  const next = page.getByRole("form", { name: /Consensus: Grade/ });
  await next.getByLabel("Reason").fill("");
  await next.getByLabel("Reason").press("n");
  await expect(next.getByLabel("Reason")).toHaveValue("n");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Auger");
});

test("consolidation marks agreement, disagreement and ties; a tie has no default; n moves to the next item with a disagreement", async ({ page }) => {
  const db = testDb();
  const change = (externalId: string) => db.codeChange.findFirstOrThrow({ where: { externalId, study: { slug: NEXT_STUDY } } });
  const [retry, util] = [await change("py-retry-1"), await change("js-pr7-b")];
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${NEXT_STUDY}/consolidate`);
  const rows = page.getByTestId("consolidation-row");
  await expect(rows.filter({ hasText: "py-retry-1" }).getByTestId("consolidation-disagreements")).toHaveText("1 (1 tie)");
  await expect(rows.filter({ hasText: "js-pr7-b" }).getByTestId("consolidation-disagreements")).toHaveText("1 (1 tie)");
  await rows.filter({ hasText: "py-retry-1" }).getByRole("link").click();

  // c1: both correct; c2: ada correct, grace incorrect (with a correction); i1: ada alone; a1: grace's correction of c2
  const claims = page.getByTestId("consolidation-claim");
  await expect(claims.getByTestId("claim-agreement")).toHaveText(["annotators agree", "tie: choose", "one annotator"]);
  await expect(claims.nth(1)).toHaveAttribute("data-agreement", "tie");
  await expect(page.getByTestId("consolidation-summary")).toHaveText("3 claims to decide: the annotators disagree on 1, 1 of them ties (split evenly: no default, choose).");
  await expect(claims.nth(1).getByTestId("suggestion")).toHaveText("tie: 1 kept, 1 rejected; choose keep, replace or drop");
  for (const action of ["keep", "replace", "drop"]) await expect(claims.nth(1).getByLabel(action)).not.toBeChecked();
  await expect(claims.nth(0).getByLabel("keep")).toBeChecked();

  // saving without a choice for the tie is refused, naming the claim
  const form = page.getByRole("form", { name: "Consolidation" });
  await page.getByRole("button", { name: "Save consolidation" }).click();
  await expect(form.getByRole("alert")).toHaveText("Choose keep, replace or drop for claim 2: the annotators are split evenly, so there is no default.");
  expect((await db.codeChange.findUniqueOrThrow({ where: { id: retry.id } })).consolidatedAt).toBeNull();
  await claims.nth(1).getByLabel("replace").check();
  await page.getByRole("button", { name: "Save consolidation" }).click();
  await expect(form.getByRole("status")).toHaveText(/Consolidated: \d+ decisions saved/);
  expect(await db.consolidationDecision.findFirst({ where: { codeChangeId: retry.id, action: "REPLACE" } })).toMatchObject({ replacementText: "Each attempt has its own 5-second timeout." });

  // on to the next item with a disagreement
  await expect(page.getByTestId("next-disagreement")).toBeFocused();
  await page.keyboard.press("n");
  await expect(page).toHaveURL(new RegExp(`/consolidate/${util.id}$`));
  await expect(page.getByTestId("claim-agreement")).toHaveText("tie: choose");
  await expect(page.getByTestId("next-disagreement")).toHaveText("No other disagreement is open. All items");
});

test("a claim has one number: the adjudication queue and its page name it as the consolidation page numbers it", async ({ page }) => {
  const retry = await testDb().codeChange.findFirstOrThrow({ where: { externalId: "py-retry-1", study: { slug: NEXT_STUDY } } });
  await signIn(page, E2E_ACCOUNTS.lead);
  // c2, stored at position 2 next to grace's correction of it, is the second claim of the change
  await page.goto(`/studies/${NEXT_STUDY}/consolidate/${retry.id}`);
  await expect(page.getByTestId("consolidation-claim").nth(1)).toContainText("2. A timeout of 5 seconds is added to every request.");
  await page.goto(`/studies/${NEXT_STUDY}/adjudicate?task=CLAIM_VERIFICATION`);
  const row = page.getByTestId("open-disagreement").filter({ hasText: "py-retry-1" });
  await expect(row).toContainText("py-retry-1 · claim 2");
  await row.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Adjudicate py-retry-1 · claim 2");
});
