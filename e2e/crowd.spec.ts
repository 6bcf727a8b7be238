/**
 * Crowd links in a real Chromium: a Prolific participant follows the study's link, fails the
 * qualification once and passes the second time, labels their quota and sees the completion
 * code; a second participant's browser reaches neither the first one's work nor their link, a
 * forged session cookie nor a lead's route; an abandoned session's items go back to the pool and
 * the next participant gets them.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { unifiedDiff } from "@/lib/diff";
import { testDb } from "./fixtures";
import { expectSaved, keys, watchPageErrors } from "./workspace-fixtures";

const CODE = "C0MPLETE-42";
let slug = "";
let studyId = "";

test.beforeAll(async () => {
  const db = testDb();
  const tag = `crowd${Date.now()}`;
  const study = await db.study.create({
    data: {
      slug: `study-${tag}`,
      name: `Crowd study ${tag}`,
      guidelines: "# Guidelines\n\nA high-quality comment names a concrete, testable issue.",
      tasks: ["COMMENT_FILTERING"],
      annotatorsPerItem: 1,
      reliabilitySetSize: 0,
      qualificationRequired: true,
      qualificationConsent: "I agree to take part in this study.",
      qualificationGoldItems: 1,
      qualificationPassMark: 1,
      qualificationMaxAttempts: 2,
      crowdOpen: true,
      crowdQuota: 2,
      crowdCompletionCode: CODE,
      crowdReleaseMinutes: 30,
    },
  });
  slug = study.slug;
  studyId = study.id;
  for (let n = 0; n < 5; n++) {
    const oldFile = "def f(x):\n    return x\n";
    const newFile = `def f(x):\n    return x + ${n}\n`;
    const change = await db.codeChange.create({ data: { studyId, externalId: `cc-${n}`, filePath: `f${n}.py`, language: "python", diff: unifiedDiff(oldFile, newFile, { path: `f${n}.py` }), oldFile, newFile, position: n } });
    for (let i = 0; i < 2; i++) await db.review.create({ data: { codeChangeId: change.id, externalId: `r${i}`, system: `system-${i}`, text: `review ${i} of change ${n}: x + ${n} overflows`, position: i } });
  }
  // The last change holds the gold item the qualification asks (and stays out of the pool).
  const gold = await db.review.findFirstOrThrow({ where: { codeChange: { studyId, externalId: "cc-4" }, externalId: "r0" } });
  await db.consensus.create({ data: { studyId, task: "COMMENT_FILTERING", itemId: gold.id, question: "high-quality", value: "high-quality", reason: "It names a concrete overflow a test can show.", gold: true } });
});

const link = (pid: string) => `/join/${slug}?PROLIFIC_PID=${pid}&STUDY_ID=prolific-study&SESSION_ID=session-${pid}`;
const participantOf = (pid: string) => testDb().account.findFirstOrThrow({ where: { crowdStudyId: studyId, crowdPlatform: "prolific", crowdId: pid } });
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

async function newParticipant(browser: Browser, pid: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link(pid));
  await expect(page).toHaveURL(new RegExp(`/participate/${slug}$`));
  return page;
}

async function answerGold(page: Page, option: string, expected: RegExp) {
  await expect(page.getByTestId("qualification-item")).toContainText("review 0 of change 4");
  await page.getByLabel(option, { exact: true }).check();
  await page.getByRole("button", { name: "Answer" }).click();
  await expect(page.getByTestId("qualification-feedback")).toContainText(expected);
}

test("a Prolific participant fails the qualification once, passes the second time, labels their quota and sees the completion code", async ({ browser }) => {
  test.setTimeout(180_000);
  const pid = "5f1a2b3c4d5e6f7a8b9c0d1e";
  const page = await newParticipant(browser, pid);
  const errors = watchPageErrors(page);
  const account = await participantOf(pid);
  expect(account.email).toMatch(/@participants\.invalid$/);
  expect(account.passwordHash).toBeNull();
  expect(await testDb().studyMember.findMany({ where: { accountId: account.id }, select: { studyId: true, role: true } })).toEqual([{ studyId, role: "ANNOTATOR" }]);

  await page.getByRole("link", { name: "start it" }).click();
  await expect(page.getByTestId("consent-text")).toContainText("I agree to take part");
  await page.getByRole("button", { name: "I accept" }).click();
  await page.getByRole("button", { name: "I have read the guidelines" }).click();
  await answerGold(page, "not high-quality", /Not quite\. The known answer: High quality\..*Why: It names a concrete overflow/s);
  await shot(page, "qualification-feedback");
  await page.getByRole("button", { name: "See the result" }).click();
  await expect(page.getByTestId("qualification-retry")).toContainText("1 attempt left");
  await page.getByRole("button", { name: "Try again" }).click();
  await answerGold(page, "High quality", /Right\./);
  await page.getByRole("button", { name: "See the result" }).click();
  await expect(page.getByTestId("qualification-passed")).toContainText("100%");

  await page.goto(`/participate/${slug}`);
  await expect(page.getByTestId("participant-item")).toHaveCount(2);
  await shot(page, "participant-items");
  const assignments = await testDb().assignment.findMany({ where: { annotatorId: account.id }, orderBy: { position: "asc" } });
  expect(assignments.map((a) => a.task)).toEqual(["COMMENT_FILTERING", "COMMENT_FILTERING"]);
  for (const [i, a] of assignments.entries()) {
    await page.goto(`/participate/${slug}`);
    await page.getByTestId("participant-item").nth(i).getByRole("link").click();
    await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
    await keys(page, "1", "0");
    await expectSaved(page);
    await keys(page, "Control+Enter");
    await expect.poll(async () => (await testDb().assignment.findUniqueOrThrow({ where: { id: a.id } })).status).toBe("DONE");
  }
  // After the last item the workspace leads home, which points the participant to their page and its completion code.
  await page.goto("/annotate");
  await page.getByTestId("participation-link").getByRole("link").click();
  await expect(page.getByTestId("completion-code")).toHaveText(CODE);
  // Following the link again in the same browser resumes: the completion code.
  await page.goto(link(pid));
  await expect(page.getByTestId("completion-code")).toHaveText(CODE);
  await shot(page, "completion-code");
  expect(errors).toEqual([]);
});

test("a second participant reaches neither the first one's work nor their link, nor lead routes; a forged session is none; a closed link lets nobody in", async ({ browser }) => {
  const first = await participantOf("5f1a2b3c4d5e6f7a8b9c0d1e");
  const firstAssignment = await testDb().assignment.findFirstOrThrow({ where: { annotatorId: first.id } });
  const page = await newParticipant(browser, "second-participant-01");
  await expect(page.getByTestId("participant-qualify")).toBeVisible();
  // The first one's workspace, their answers' route, and their link from this browser.
  expect((await page.goto(`/annotate/${firstAssignment.id}`))?.status()).toBe(404);
  expect((await page.request.get(`/api/annotations/assignments/${firstAssignment.id}`)).status()).toBe(404);
  const taken = await page.request.get(link("5f1a2b3c4d5e6f7a8b9c0d1e"), { maxRedirects: 0 });
  expect(taken.status()).toBe(403);
  expect((await taken.json()).error).toMatch(/another browser/);
  // A lead's route and page, another study's qualification.
  expect((await page.request.get(`/api/studies/${slug}/agreement?resamples=0`)).status()).toBe(403);
  expect((await page.goto(`/studies/${slug}/quality`))?.status()).toBe(403);
  expect((await page.goto(`/qualification/demo`))?.status()).toBe(404);
  expect((await page.goto(`/participate/demo`))?.status()).toBe(404);
  // Their account page offers no API token, and shows no placeholder e-mail.
  await page.goto("/account");
  await expect(page.getByTestId("participant-account")).toBeVisible();
  await expect(page.getByRole("heading", { name: "API tokens" })).toHaveCount(0);
  await expect(page.getByText("participants.invalid")).toHaveCount(0);
  await shot(page, "second-participant");

  // A forged session cookie signs nobody in; a link naming no participant, or an MTurk preview, is refused.
  const forged = await (await browser.newContext()).newPage();
  await forged.context().addCookies([{ name: "next-auth.session-token", value: "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..forged.forged.forged", url: test.info().project.use.baseURL! }]);
  await forged.goto(`/participate/${slug}`);
  await expect(forged).toHaveURL(/\/signin/);
  expect((await forged.request.get(`/join/${slug}`, { maxRedirects: 0 })).status()).toBe(400);
  expect((await forged.request.get(`/join/${slug}?workerId=A1B2&assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=h`, { maxRedirects: 0 })).status()).toBe(400);
  expect((await forged.request.get(`/join/demo?pid=someone`, { maxRedirects: 0 })).status()).toBe(404);
  expect(await testDb().account.count({ where: { crowdId: { in: ["someone", "A1B2"] } } })).toBe(0);
});

test("an abandoned session's items go back to the pool, and the next participant gets them", async ({ browser }) => {
  process.env.DATABASE_URL ??= process.env.E2E_DATABASE_URL;
  const { releaseIdleParticipant } = await import("@/lib/data/participants");
  const db = testDb();
  const qualify = async (pid: string) => db.studyMember.updateMany({ where: { studyId, account: { crowdId: pid } }, data: { qualifiedAt: new Date() } });

  const leaving = await newParticipant(browser, "leaves-early-01");
  await qualify("leaves-early-01");
  await leaving.reload();
  await expect(leaving.getByTestId("participant-item")).toHaveCount(2);
  const left = await participantOf("leaves-early-01");
  const theirs = await db.assignment.findMany({ where: { annotatorId: left.id }, select: { codeChangeId: true } });
  expect(theirs).toHaveLength(2);
  // Not idle yet: nothing is released, the job would look again later.
  expect(await releaseIdleParticipant(left.id)).toMatchObject({ notBefore: expect.any(Date) });
  // 31 minutes without activity (the study releases after 30).
  const past = new Date(Date.now() - 31 * 60_000);
  await db.account.update({ where: { id: left.id }, data: { crowdSeenAt: past } });
  await db.$executeRaw`UPDATE "Assignment" SET "updatedAt" = ${past} WHERE "userId" = ${left.id}`;
  expect(await releaseIdleParticipant(left.id)).toEqual({ released: 2 });

  const next = await newParticipant(browser, "comes-next-01");
  await qualify("comes-next-01");
  await next.reload();
  await expect(next.getByTestId("participant-item")).toHaveCount(2);
  const taken = await db.assignment.findMany({ where: { annotator: { crowdId: "comes-next-01" } }, select: { codeChangeId: true } });
  expect(taken.map((a) => a.codeChangeId).sort()).toEqual(theirs.map((a) => a.codeChangeId).sort());
  await shot(next, "next-participant-items");

  // The one who left: their session has ended and their link says so.
  await leaving.goto(`/participate/${slug}`);
  await expect(leaving).toHaveURL(/\/signin/);
  const back = await leaving.request.get(link("leaves-early-01"), { maxRedirects: 0 });
  expect(back.status()).toBe(423);
});
