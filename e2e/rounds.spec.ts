/**
 * Calibration rounds in the browser (issue 12, done when): a GradedReviews-style study in three
 * rounds; two annotators grade round 1 and are held ("waiting for the next round", the workspace
 * and saves of round 2 refused) until the lead has seen round 1's Fleiss' kappa with its CI,
 * adjudicated two disagreements and released round 2; the GradedReviews workbook then carries
 * the consensus grades and opens in pandas (Debian's python3-pandas and python3-openpyxl).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { unifiedDiff } from "@/lib/diff";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { newAnnotator } from "./workspace-fixtures";

const STUDY = `rounds-e2e-${Date.now()}`;
const SYSTEMS = ["Tufano's", "Auger", "CodeReviewer"];
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
let annotators: Awaited<ReturnType<typeof newAnnotator>>[] = [];
/** Round 1's grades per annotator, change by change, review by review (SYSTEMS order): they differ on two reviews. */
const ROUND_1 = [
  [
    [3, 4, 2],
    [5, 1, 2],
  ],
  [
    [3, 2, 2],
    [5, 1, 4],
  ],
];

test.beforeAll(async () => {
  const db = testDb();
  const lead = await db.user.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const study = await db.study.create({ data: { slug: STUDY, name: "Rounds e2e", taskTypes: ["REFERENCE_GRADING"], createdById: lead.id, hideSystemNames: false } });
  for (let n = 0; n < 6; n++) {
    const oldFile = "int f(int x) {\n  return x;\n}\n";
    const newFile = `int f(int x) {\n  return x + ${n};\n}\n`;
    const change = await db.codeChange.create({ data: { studyId: study.id, externalId: `change-${n}`, filePath: `F${n}.java`, language: "java", diff: unifiedDiff(oldFile, newFile, { path: `F${n}.java` }), oldFile, newFile, position: n } });
    await db.candidateReview.create({ data: { codeChangeId: change.id, externalId: "human", system: "human", text: `Check the bound ${n}.`, isReference: true } });
    for (const [i, system] of SYSTEMS.entries()) await db.candidateReview.create({ data: { codeChangeId: change.id, externalId: system, system, text: `${system} on change ${n}`, position: i + 1 } });
  }
  annotators = [await newAnnotator("round-a"), await newAnnotator("round-b")];
  await db.studyMember.createMany({ data: annotators.map((a) => ({ studyId: study.id, userId: a.userId, role: "ANNOTATOR" as const })) });
});

/** The annotator's assignment of a change. */
const assignmentOf = (userId: string, change: number) => testDb().assignment.findFirstOrThrow({ where: { userId, codeChange: { externalId: `change-${change}`, study: { slug: STUDY } } } });
const reviewsOf = (change: number) => testDb().candidateReview.findMany({ where: { codeChange: { externalId: `change-${change}`, study: { slug: STUDY } }, isReference: false }, orderBy: { position: "asc" } });

async function gradeAndSubmit(page: Page, userId: string, change: number, grades: number[]): Promise<void> {
  const assignment = await assignmentOf(userId, change);
  for (const [i, review] of (await reviewsOf(change)).entries()) {
    const saved = await page.request.post("/api/annotations", { data: { kind: "grade", assignmentId: assignment.id, targetId: review.id, baseVersion: 0, value: { grade: grades[i], comment: "" } } });
    expect(saved.status()).toBe(200);
  }
  expect((await page.request.post(`/api/annotations/assignments/${assignment.id}/submit`, { data: {} })).status()).toBe(200);
}

test("three calibration rounds: annotators are held after round 1 until the lead has seen its kappa, adjudicated and released round 2", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${STUDY}/rounds`);
  const make = page.getByRole("form", { name: "Make rounds" });
  await make.getByLabel("Equal rounds").fill("3");
  await make.getByRole("button", { name: "Make rounds" }).click();
  // the page refreshes to the rounds (the form and its message give way to them)
  await expect(page.getByTestId("round")).toHaveCount(3);
  await expect(page.getByTestId("round-status").nth(1)).toContainText("not open yet");

  // both annotators grade round 1 (changes 0 and 1) and are then held
  const annotatorPages: Page[] = [];
  for (const [k, annotator] of annotators.entries()) {
    const context = await browser.newContext();
    const annotatorPage = await context.newPage();
    annotatorPages.push(annotatorPage);
    await signIn(annotatorPage, annotator.account);
    for (const change of [0, 1]) await gradeAndSubmit(annotatorPage, annotator.userId, change, ROUND_1[k][change]);
    await annotatorPage.goto("/annotate");
    await expect(annotatorPage.getByTestId("waiting-for-round")).toContainText("waiting for the next round");
    const held = await assignmentOf(annotator.userId, 2);
    await annotatorPage.goto(`/annotate/${held.id}`);
    await expect(annotatorPage.getByTestId("locked")).toContainText("waiting for the next round");
    const review = (await reviewsOf(2))[0];
    const refused = await annotatorPage.request.post("/api/annotations", { data: { kind: "grade", assignmentId: held.id, targetId: review.id, baseVersion: 0, value: { grade: 3, comment: "" } } });
    expect(refused.status()).toBe(423);
  }

  // the lead sees round 1's Fleiss' kappa with its bootstrap CI
  await page.goto(`/studies/${STUDY}/rounds`);
  const round1 = page.getByTestId("round").first();
  await expect(round1.getByTestId("round-status")).toContainText("closed");
  await expect(round1.getByTestId("coefficient-fleiss")).toHaveText(/^-?\d\.\d+ \[-?\d\.\d+, -?\d\.\d+\]$/);
  await expect(round1.getByTestId("round-disagreement")).toHaveCount(2);

  // … adjudicates the two disagreements …
  const decided = [
    { label: "Auger", grade: "4" },
    { label: "CodeReviewer", grade: "3" },
  ];
  for (const d of decided) {
    await page.goto(`/studies/${STUDY}/rounds`);
    await page.getByTestId("round").first().getByTestId("round-disagreement").filter({ hasText: d.label }).getByRole("link").click();
    const form = page.getByRole("form", { name: /Consensus: Grade/ });
    await form.getByLabel(d.grade, { exact: true }).check();
    await form.getByLabel("Reason").fill("agreed in the round 1 review");
    await form.getByRole("button", { name: "Save consensus" }).click();
    await expect(form.getByRole("status")).toContainText("version 1");
  }

  // … and releases round 2 with notes
  await page.goto(`/studies/${STUDY}/rounds`);
  const release = page.getByRole("form", { name: "Release round 2" });
  await release.getByLabel(/Notes on the review of round 1/).fill("Auger and CodeReviewer discussed; grade against the reference only");
  await release.getByRole("button", { name: "Release round 2" }).click();
  // The page re-renders without the release form once round 2 is open (its message may go with
  // it before it is seen): round 2's status says when it was opened.
  await expect(page.getByTestId("round-status").nth(1)).toContainText("opened");
  await page.reload();
  await expect(page.getByTestId("round-status").nth(1)).toContainText("open");
  await expect(page.getByTestId("round-status").nth(2)).toContainText("not open yet");

  for (const [k, annotator] of annotators.entries()) {
    const annotatorPage = annotatorPages[k];
    await annotatorPage.goto("/annotate");
    await expect(annotatorPage.getByTestId("waiting-for-round")).toHaveCount(0);
    await annotatorPage.goto(`/annotate/${(await assignmentOf(annotator.userId, 2)).id}`);
    await expect(annotatorPage.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
    await annotatorPage.context().close();
  }

  // the GradedReviews workbook carries the consensus grades: unanimous 3, adjudicated 4 and 3 on change-0; unanimous 5 and 1, adjudicated… none on change-1's third
  await page.goto(`/studies/${STUDY}`);
  const workbookForm = page.getByRole("form", { name: "GradedReviews workbook" });
  await workbookForm.getByRole("combobox").selectOption("");
  const downloading = page.waitForEvent("download");
  await workbookForm.getByRole("button", { name: "Download" }).click();
  const file = join(mkdtempSync(join(tmpdir(), "rounds-")), "workbook.xlsx");
  await (await downloading).saveAs(file);
  const script = join(tmpdir(), `read-rounds-workbook-${Date.now()}.py`);
  writeFileSync(
    script,
    [
      "import sys, json, pandas",
      "df = pandas.read_excel(sys.argv[1])",
      "cols = list(df.columns)",
      "out = {}",
      "for change in ['change-0', 'change-1']:",
      "    row = df[df['ID'] == change].iloc[0]",
      "    out[change] = [None if pandas.isna(row[cols[cols.index(s) + 1]]) else int(row[cols[cols.index(s) + 1]]) for s in json.loads(sys.argv[2])]",
      "print(json.dumps(out))",
    ].join("\n"),
  );
  let opened: string;
  try {
    opened = execFileSync(PYTHON, [script, file, JSON.stringify(SYSTEMS)], { encoding: "utf8" });
  } catch (error) {
    if (process.env.CI === "true") throw error;
    console.warn(`skipped opening the workbook in pandas (install Debian's python3-pandas and python3-openpyxl): ${(error as Error).message.split("\n")[0]}`);
    return;
  }
  // change-0: unanimous 3, adjudicated 4 (Auger), unanimous 2; change-1: unanimous 5 and 1, adjudicated 3 (CodeReviewer)
  expect(JSON.parse(opened)).toEqual({ "change-0": [3, 4, 2], "change-1": [5, 1, 3] });
});
