/**
 * Adjudication in the browser (issue 12): a lead opens the queue of grade disagreements of the
 * documented example, compares the two annotators' grades side by side, decides the consensus
 * grade with a reason, sees it in the history, and downloads the GradedReviews workbook with
 * the consensus grades (opened with pandas when Debian's python3-pandas and python3-openpyxl are
 * installed). An unknown grader is a readable 400, not a cancelled download.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import ExcelJS from "exceljs";
import { runImport } from "@/lib/import";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

const STUDY = "adjudication-e2e";
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

test.beforeAll(async () => {
  const db = testDb();
  if (await db.study.findUnique({ where: { slug: STUDY } })) return;
  const result = await runImport({ study: STUDY, format: "jsonl", files: [{ name: "code-changes.jsonl", content: readFileSync("docs/examples/code-changes.jsonl") }] }, db);
  if (result.status === "refused") throw new Error(`import refused: ${JSON.stringify(result.errors.slice(0, 3))}`);
  const lead = await db.user.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  await db.study.update({ where: { slug: STUDY }, data: { createdById: lead.id } });
});

test("a lead adjudicates a grade disagreement and downloads the workbook with the consensus grade", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${STUDY}/adjudicate?task=REFERENCE_GRADING`);
  const open = page.getByTestId("open-disagreement");
  await expect(open).toHaveCount(1);
  await expect(open).toContainText("ada: 3");
  await expect(open).toContainText("grace: 2");
  await open.getByRole("link").click();

  await expect(page.getByTestId("annotation-row")).toHaveCount(2);
  const form = page.getByRole("form", { name: /Consensus: Grade/ });
  await form.getByLabel("3", { exact: true }).check();
  await form.getByLabel("Reason").fill("the review asks the reference's question");
  await form.getByRole("button", { name: "Save consensus" }).click();
  await expect(form.getByRole("status")).toContainText("version 1");
  await expect(page.getByTestId("history-entry")).toContainText("the review asks the reference's question");

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
