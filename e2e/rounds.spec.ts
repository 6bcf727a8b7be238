/**
 * Calibration rounds in the browser: a GradedReviews-style study in three
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
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const study = await db.study.create({ data: { slug: STUDY, name: "Rounds e2e", tasks: ["REFERENCE_GRADING"], ownerId: lead.id, hideSystemNames: false } });
  for (let n = 0; n < 6; n++) {
    const oldFile = "int f(int x) {\n  return x;\n}\n";
    const newFile = `int f(int x) {\n  return x + ${n};\n}\n`;
    const change = await db.codeChange.create({ data: { studyId: study.id, externalId: `change-${n}`, filePath: `F${n}.java`, language: "java", diff: unifiedDiff(oldFile, newFile, { path: `F${n}.java` }), oldFile, newFile, position: n } });
    await db.review.create({ data: { codeChangeId: change.id, externalId: "human", system: "human", text: `Check the bound ${n}.`, isReference: true } });
    for (const [i, system] of SYSTEMS.entries()) await db.review.create({ data: { codeChangeId: change.id, externalId: system, system, text: `${system} on change ${n}`, position: i + 1 } });
  }
  annotators = [await newAnnotator("round-a"), await newAnnotator("round-b")];
  await db.studyMember.createMany({ data: annotators.map((a) => ({ studyId: study.id, accountId: a.accountId, role: "ANNOTATOR" as const })) });
});

/** The annotator's assignment of a change. */
const assignmentOf = (accountId: string, change: number) => testDb().assignment.findFirstOrThrow({ where: { annotatorId: accountId, codeChange: { externalId: `change-${change}`, study: { slug: STUDY } } } });
const reviewsOf = (change: number) => testDb().review.findMany({ where: { codeChange: { externalId: `change-${change}`, study: { slug: STUDY } }, isReference: false }, orderBy: { position: "asc" } });

async function gradeAndSubmit(page: Page, accountId: string, change: number, grades: number[]): Promise<void> {
  const assignment = await assignmentOf(accountId, change);
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
  await make.getByRole("button", { name: "Preview rounds" }).click();
  // the preview: each annotator gets both items of every round (6 changes in 3 rounds), 12 assignments in all; nothing is made yet
  const preview = page.getByTestId("rounds-preview");
  await expect(preview).toContainText("3 rounds (round-1: 2 code changes, round-2: 2 code changes, round-3: 2 code changes); every code change of the study is in a round.");
  await expect(preview.getByTestId("rounds-preview-annotator")).toHaveCount(2);
  for (const row of await preview.getByTestId("rounds-preview-annotator").all()) await expect(row.locator("td")).toHaveText([/round-[ab] tester/, "2", "2", "2", "0", "6"]);
  await expect(preview.getByTestId("rounds-preview-total").locator("td")).toHaveText(["All annotators", "4", "4", "4", "0", "12"]);
  await expect(preview.getByTestId("rounds-preview-changes")).toHaveText("Assignments: 12 new, 0 moved in their queues, 0 unopened removed, 0 started kept.");
  expect(await testDb().assignment.count({ where: { study: { slug: STUDY } } })).toBe(0);
  expect(await testDb().calibrationRound.count({ where: { study: { slug: STUDY } } })).toBe(0);
  await preview.getByRole("button", { name: "Make 3 rounds and create 12 assignments" }).click();
  // the page refreshes to the rounds (the form and its message give way to them)
  await expect(page.getByTestId("round")).toHaveCount(3);
  expect(await testDb().assignment.count({ where: { study: { slug: STUDY } } })).toBe(12);
  await expect(page.getByTestId("outside-rounds")).toHaveText("Every code change of the study is in a round.");
  await expect(page.getByTestId("round-status").nth(1)).toContainText("not open yet");

  // both annotators grade round 1 (changes 0 and 1) and are then held
  const annotatorPages: Page[] = [];
  for (const [k, annotator] of annotators.entries()) {
    const context = await browser.newContext();
    const annotatorPage = await context.newPage();
    annotatorPages.push(annotatorPage);
    await signIn(annotatorPage, annotator.account);
    for (const change of [0, 1]) await gradeAndSubmit(annotatorPage, annotator.accountId, change, ROUND_1[k][change]);
    await annotatorPage.goto("/annotate");
    await expect(annotatorPage.getByTestId("waiting-for-round")).toContainText("waiting for the next round");
    const held = await assignmentOf(annotator.accountId, 2);
    await annotatorPage.goto(`/annotate/${held.id}`);
    await expect(annotatorPage.getByTestId("locked")).toContainText("waiting for the next round");
    // every other item waits too: no link to a next open item
    await expect(annotatorPage.getByTestId("next-open-item")).toHaveCount(0);
    const review = (await reviewsOf(2))[0];
    const refused = await annotatorPage.request.post("/api/annotations", { data: { kind: "grade", assignmentId: held.id, targetId: review.id, baseVersion: 0, value: { grade: 3, comment: "" } } });
    expect(refused.status()).toBe(423);
  }

  // the study's page counts what waits for the lead: rounds 2 and 3 held, two reviews to adjudicate; its link leads to the rounds
  await page.goto(`/studies/${STUDY}`);
  await expect(page.getByTestId("waiting-round")).toHaveText("4 code changes waiting for a round release (round 2 is next): Calibration rounds");
  await expect(page.getByTestId("waiting-adjudication")).toHaveText("2 reviews with open disagreements waiting for adjudication in reference-based grading: Adjudicate reference-based grading");
  await expect(page.getByTestId("waiting-adjudication").getByRole("link")).toHaveAttribute("href", `/studies/${STUDY}/adjudicate?task=REFERENCE_GRADING`);
  await page.getByTestId("waiting-round").getByRole("link", { name: "Calibration rounds" }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${STUDY}/rounds$`));

  // the lead sees round 1's Fleiss' kappa with its bootstrap CI
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

  await page.goto(`/studies/${STUDY}`);
  await expect(page.getByTestId("waiting-round")).toHaveText("2 code changes waiting for a round release (round 3 is next): Calibration rounds");
  await expect(page.getByTestId("waiting-adjudication")).toContainText("0 reviews with open disagreements");

  for (const [k, annotator] of annotators.entries()) {
    const annotatorPage = annotatorPages[k];
    await annotatorPage.goto("/annotate");
    await expect(annotatorPage.getByTestId("waiting-for-round")).toHaveCount(0);
    await annotatorPage.goto(`/annotate/${(await assignmentOf(annotator.accountId, 2)).id}`);
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

test("items outside the rounds wait for the last round until the lead opens them; making rounds from calibration sets asks first", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const db = testDb();
  const slug = `${STUDY}-outside`;
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const study = await db.study.create({ data: { slug, name: "Rounds gate e2e", tasks: ["REFERENCE_GRADING"], ownerId: lead.id, hideSystemNames: false } });
  const changes = [];
  for (let n = 0; n < 4; n++) {
    const change = await db.codeChange.create({ data: { studyId: study.id, externalId: `gate-${n}`, filePath: `G${n}.java`, language: "java", diff: unifiedDiff("a\n", `a${n}\n`, { path: `G${n}.java` }), oldFile: "a\n", newFile: `a${n}\n`, position: n } });
    await db.review.create({ data: { codeChangeId: change.id, externalId: "human", system: "human", text: `Reference ${n}.`, isReference: true } });
    await db.review.create({ data: { codeChangeId: change.id, externalId: "Auger", system: "Auger", text: `Auger on ${n}`, position: 1 } });
    changes.push(change);
  }
  for (const n of [0, 1]) await db.itemSet.create({ data: { studyId: study.id, name: `batch-${n + 1}`, kind: "CALIBRATION", members: { create: [{ codeChangeId: changes[n].id, position: 0 }] } } });
  const annotator = await newAnnotator("gate");
  const other = await newAnnotator("gate-other");
  await db.studyMember.createMany({ data: [annotator, other].map((a) => ({ studyId: study.id, accountId: a.accountId, role: "ANNOTATOR" as const })) });

  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${slug}/rounds`);
  const make = page.getByRole("form", { name: "Make rounds" });
  await make.getByLabel("or calibration item sets, in order").fill("batch-1, batch-2");
  await make.getByRole("button", { name: "Preview rounds" }).click();
  const preview = page.getByTestId("rounds-preview");
  await expect(preview).toContainText("2 rounds (batch-1: 1 code change, batch-2: 1 code change); 2 code changes outside the rounds, which open after the last round's release.");
  await expect(preview.getByTestId("rounds-preview-total").locator("td")).toHaveText(["All annotators", "2", "2", "4", "8"]);
  // cancelling makes nothing
  await preview.getByRole("button", { name: "Cancel" }).click();
  await expect(preview).toHaveCount(0);
  expect(await db.calibrationRound.count({ where: { studyId: study.id } })).toBe(0);
  await make.getByRole("button", { name: "Preview rounds" }).click();
  await preview.getByRole("button", { name: "Make 2 rounds and create 8 assignments" }).click();
  await expect(page.getByTestId("round")).toHaveCount(2);
  const outsideState = page.getByTestId("outside-rounds");
  await expect(outsideState).toContainText("2 code changes are outside the rounds: closed to annotators until round 2, the last, is released, unless you open them now.");

  // the annotator can open round 1's item, not an item outside the rounds
  const context = await browser.newContext();
  const annotatorPage = await context.newPage();
  await signIn(annotatorPage, annotator.account);
  const outside = await db.assignment.findFirstOrThrow({ where: { annotatorId: annotator.accountId, codeChangeId: changes[2].id } });
  await annotatorPage.goto(`/annotate/${outside.id}`);
  await expect(annotatorPage.getByTestId("locked")).toContainText("outside the calibration rounds: waiting for the last round (round 2)");
  // the locked page links to the next item the annotator can work on: round 1's
  const first = await db.assignment.findFirstOrThrow({ where: { annotatorId: annotator.accountId, codeChangeId: changes[0].id } });
  await annotatorPage.getByTestId("next-open-item").click();
  await expect(annotatorPage).toHaveURL(new RegExp(`/annotate/${first.id}$`));
  await expect(annotatorPage.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  const review = await db.review.findFirstOrThrow({ where: { codeChangeId: changes[2].id, isReference: false } });
  const save = () => annotatorPage.request.post("/api/annotations", { data: { kind: "grade", assignmentId: outside.id, targetId: review.id, baseVersion: 0, value: { grade: 3, comment: "" } } });
  expect((await save()).status()).toBe(423);
  const queue = (await (await annotatorPage.request.get("/api/me/assignments")).json()) as { queues: { study: { slug: string }; entries: { id: string; waiting: unknown }[] }[] };
  expect(queue.queues.find((q) => q.study.slug === slug)!.entries.find((e) => e.id === outside.id)!.waiting).toEqual({ kind: "round", round: 2, outside: true });

  // the lead opens them now
  await outsideState.getByRole("button", { name: "Open items outside rounds now" }).click();
  await expect(outsideState).toContainText("2 code changes are outside the rounds: open, opened by a lead on");
  await expect(outsideState.getByRole("button")).toHaveCount(0);
  await annotatorPage.goto(`/annotate/${outside.id}`);
  await expect(annotatorPage.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  expect((await save()).status()).toBe(200);
  await context.close();
});
