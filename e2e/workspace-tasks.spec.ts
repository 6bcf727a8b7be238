/**
 * Each of the four tasks done with the keyboard alone, then the stored values checked in the
 * database (CRScore stage 1 and 2, GradedReviews grading, c-CRAB comment filtering).
 */
import { expect, test } from "@playwright/test";
import { stage2FromConsolidation, stage2FromOwnJudgements } from "@/lib/annotation/stage2";
import { testDb } from "./fixtures";
import { assignmentFor, demoChange, expectSaved, keys, openWorkspace, watchPageErrors } from "./workspace-fixtures";

test("claim verification with the keyboard: codes, error type, note, correction, unnecessary, missing claim, submit", async ({ page }) => {
  const change = await demoChange({ mostClaims: true });
  const claims = change.pseudoReferences.filter((r) => r.kind === "CLAIM" || r.kind === "IMPLICATION").sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
  expect(claims.length).toBeGreaterThanOrEqual(5);
  const a = await assignmentFor("claims", "CLAIM_VERIFICATION", change.id);
  const errors = watchPageErrors(page);
  await openWorkspace(page, a);
  // the demo study hides system names: also the model that generated the claims
  const models = [...new Set(claims.map((c) => c.source).filter((s) => s.length > 2))];
  expect(models.length).toBeGreaterThan(0);
  for (const model of models) await expect(page.getByTestId("claim-judgement").first()).not.toContainText(model);

  // the shortcut overlay and the guidelines panel are one key away
  await keys(page, "?");
  await expect(page.getByTestId("shortcuts")).toBeVisible();
  await keys(page, "Escape");
  await expect(page.getByTestId("shortcuts")).toBeHidden();
  await keys(page, "g");
  await expect(page.getByTestId("guidelines")).toBeVisible();
  await keys(page, "g");
  await expect(page.getByTestId("guidelines")).toBeHidden();

  const claimCards = page.getByTestId("claim-judgement");
  // a code moves on to the next claim; k goes back
  await keys(page, "1", "0");
  await expect(claimCards.nth(2)).toHaveAttribute("aria-current", "true");
  await keys(page, "k", "e", "2", "m");
  const note = page.getByLabel("Note on claim 2");
  await expect(note).toBeFocused();
  // single-key shortcuts do not fire while typing
  await page.keyboard.type("misreads the loop; j k n g 1 0 are just text");
  await keys(page, "Escape");
  await expect(claimCards.nth(1)).toHaveAttribute("aria-current", "true");
  await expect(claimCards.nth(1)).toHaveAttribute("data-code", "INCORRECT");
  await keys(page, "r");
  const correction = page.getByLabel("Correction of claim 2");
  await expect(correction).toBeFocused();
  await keys(page, "Control+a");
  await page.keyboard.type("The corrected claim");
  await keys(page, "Enter", "Escape");
  await keys(page, "j", "u", "-", "1", "2", "-", "2");
  for (let i = 5; i < claims.length; i++) await keys(page, "1");
  await keys(page, "a");
  await expect(page.getByLabel("Add a missing claim")).toBeFocused();
  await page.keyboard.type("A claim the model missed");
  await keys(page, "Enter");
  await expect(page.getByTestId("added-claim")).toHaveCount(1);
  await expectSaved(page);
  await keys(page, "Control+Enter");
  await expect(page).toHaveURL(/\/annotate$/);
  expect(errors).toEqual([]);

  const db = testDb();
  const judgements = await db.claimJudgement.findMany({ where: { annotatorId: a.accountId } });
  const byClaim = new Map(judgements.map((j) => [j.pseudoReferenceId, j]));
  const expected = ["CORRECT", "INCORRECT", "UNVERIFIABLE", "AMBIGUOUS", "INCOMPLETE", ...claims.slice(5).map(() => "CORRECT")];
  expect(claims.map((c) => byClaim.get(c.id)?.code)).toEqual(expected);
  expect(byClaim.get(claims[1].id)).toMatchObject({ errorType: "OVER_GENERALIZATION", note: "misreads the loop; j k n g 1 0 are just text" });
  expect(byClaim.get(claims[2].id)?.necessary).toBe(false);
  const added = await db.pseudoReference.findMany({ where: { addedById: a.accountId }, orderBy: { text: "asc" } });
  expect(added.map((r) => [r.kind, r.text, r.correctsId])).toEqual([
    ["ANNOTATOR_ADDED", "A claim the model missed", null],
    ["ANNOTATOR_ADDED", "The corrected claim", claims[1].id],
  ]);
  const assignment = await db.assignment.findUniqueOrThrow({ where: { id: a.assignmentId } });
  expect(assignment.status).toBe("DONE");
  expect(await db.annotationHistory.count({ where: { accountId: a.accountId, kind: "CLAIM_JUDGEMENT", action: "CREATE" } })).toBe(claims.length);
  expect(await db.annotationHistory.count({ where: { accountId: a.accountId, kind: "PSEUDO_REFERENCE", action: "CREATE" } })).toBe(2);
  // active time was recorded for the item
  await expect.poll(async () => (await db.assignment.findUniqueOrThrow({ where: { id: a.assignmentId } })).timeSpentMs).toBeGreaterThan(0);
});

/** The stage-2 pseudo-references of a change for an annotator without judgements of their own. */
async function stage2Set(codeChangeId: string, accountId: string) {
  const db = testDb();
  const refs = await db.pseudoReference.findMany({ where: { codeChangeId } });
  const current = await db.codeChange.findUniqueOrThrow({ where: { id: codeChangeId } });
  const decisions = await db.consolidationDecision.findMany({ where: { codeChangeId } });
  return current.consolidatedAt ? stage2FromConsolidation(refs, new Map(decisions.map((d) => [d.pseudoReferenceId, d]))) : stage2FromOwnJudgements(refs, new Map(), accountId);
}

test("review rating with the keyboard: addressed and partly addressed pseudo-references, three Likert scores per review", async ({ page }) => {
  const change = await demoChange({ index: 0 });
  const a = await assignmentFor("rating", "REVIEW_RATING", change.id);
  const errors = watchPageErrors(page);
  await openWorkspace(page, a);
  const reviews = page.getByTestId("review");
  const count = await reviews.count();
  expect(count).toBe(change.reviews.length);
  // system names are hidden (the demo study hides them)
  const systems = [...new Set(change.reviews.map((r) => r.system))];
  for (let i = 0; i < count; i++) {
    const header = await reviews.nth(i).locator("h3").locator("..").innerText();
    for (const system of systems) expect(header).not.toContain(system);
  }
  const set = await stage2Set(change.id, a.accountId);
  expect(set.length).toBeGreaterThanOrEqual(2);
  for (let i = 0; i < count; i++) {
    // l past the pseudo-references to the first score; the third score moves on to the next review
    await keys(page, "x", "l", "p", ...Array<string>(set.length - 1).fill("l"), "4", "3", "3");
    if (i < count - 1) await expect(reviews.nth(i + 1)).toHaveAttribute("aria-current", "true");
  }
  // past the last review's last score, digits change nothing
  await expect(page.getByTestId("end-of-list")).toBeVisible();
  await keys(page, "5", "1");
  await expectSaved(page);
  // a collapsed review names the pseudo-references it addresses
  await expect(reviews.first().getByTestId("linked")).toHaveText("linked 1, 2 partly");
  await keys(page, "Control+Enter");
  await expect(page).toHaveURL(/\/annotate$/);
  expect(errors).toEqual([]);

  const db = testDb();
  const ratings = await db.reviewRating.findMany({ where: { annotatorId: a.accountId }, include: { links: true } });
  expect(ratings).toHaveLength(count);
  for (const rating of ratings) {
    expect(rating.scores).toEqual({ conciseness: 4, comprehensiveness: 3, relevance: 3 });
    expect(rating.links.map((l) => [l.pseudoReferenceId, l.partial]).sort()).toEqual(
      [
        [set[0].id, false],
        [set[1].id, true],
      ].sort(),
    );
  }
  expect((await db.assignment.findUniqueOrThrow({ where: { id: a.assignmentId } })).status).toBe("DONE");
});

test("review rating: a digit on a pseudo-reference row scores nothing, a digit on a dimension scores that one, and the help says so", async ({ page }) => {
  const change = await demoChange({ index: 0 });
  const a = await assignmentFor("rating-row", "REVIEW_RATING", change.id);
  await openWorkspace(page, a);
  const set = await stage2Set(change.id, a.accountId);
  const first = page.getByTestId("review").first();
  await expect(first).toHaveAttribute("aria-current", "true");
  // on the first pseudo-reference row: 2 answers nothing
  await keys(page, "2");
  await expect(first.getByRole("radio", { checked: true })).toHaveCount(0);
  // l to the first dimension (conciseness), where 4 scores it
  await keys(page, ...Array<string>(set.length).fill("l"), "4");
  await expectSaved(page);
  const rating = await testDb().reviewRating.findFirstOrThrow({ where: { annotatorId: a.accountId } });
  expect(rating.scores).toEqual({ conciseness: 4 });
  await keys(page, "?");
  await expect(page.getByTestId("shortcuts")).toContainText("on a pseudo-reference row a digit does nothing");
});

test("reference-based grading with the keyboard: a grade per generated review and a comment", async ({ page }) => {
  const change = await demoChange({ index: 1 });
  const generated = change.reviews.filter((r) => !r.isReference);
  const a = await assignmentFor("grading", "REFERENCE_GRADING", change.id);
  const errors = watchPageErrors(page);
  await openWorkspace(page, a);
  await expect(page.getByRole("region", { name: "Reference review" })).toContainText(change.reviews.find((r) => r.isReference)!.text.slice(0, 30));
  const reviews = page.getByTestId("review");
  await expect(reviews).toHaveCount(generated.length);
  const grades: number[] = [];
  for (let i = 0; i < generated.length; i++) {
    const grade = (i % 5) + 1;
    grades.push(grade);
    if (i === 0) {
      await keys(page, "m");
      await expect(page.getByLabel("Comment on Review A")).toBeFocused();
      await page.keyboard.type("same point, other words");
      await keys(page, "Escape");
    }
    // the grade moves on to the next review
    await keys(page, String(grade));
  }
  await expectSaved(page);
  // the order on screen is the annotator's shuffle: read it back to match grades to reviews
  const shown = await reviews.evaluateAll((els) => els.map((el) => el.querySelector("[aria-checked=true]")?.textContent ?? ""));
  expect(shown.map(Number)).toEqual(grades);
  await keys(page, "Control+Enter");
  await expect(page).toHaveURL(/\/annotate$/);
  expect(errors).toEqual([]);

  const stored = await testDb().referenceGrade.findMany({ where: { annotatorId: a.accountId } });
  expect(stored.map((g) => g.grade).sort()).toEqual(grades.slice().sort());
  expect(stored.filter((g) => g.comment === "same point, other words")).toHaveLength(1);
  expect(stored.find((g) => g.comment)!.grade).toBe(1);
  expect((await testDb().assignment.findUniqueOrThrow({ where: { id: a.assignmentId } })).status).toBe("DONE");
});

test("comment filtering with the keyboard: high or low quality with a justification", async ({ page }) => {
  const change = await demoChange({ index: 2 });
  const a = await assignmentFor("filtering", "COMMENT_FILTERING", change.id);
  const errors = watchPageErrors(page);
  await openWorkspace(page, a);
  const reviews = page.getByTestId("review");
  const count = await reviews.count();
  expect(count).toBe(change.reviews.length);
  for (let i = 0; i < count; i++) {
    await keys(page, "m");
    await page.keyboard.type(`reason ${i}`);
    // the label moves on to the next comment
    await keys(page, "Escape", i % 2 === 0 ? "1" : "0");
  }
  await expectSaved(page);
  await keys(page, "Control+Enter");
  await expect(page).toHaveURL(/\/annotate$/);
  expect(errors).toEqual([]);
  const labels = await testDb().commentFilteringLabel.findMany({ where: { annotatorId: a.accountId } });
  expect(labels).toHaveLength(count);
  for (const label of labels) {
    const i = Number(label.justification.replace("reason ", ""));
    expect(label.highQuality).toBe(i % 2 === 0);
  }
  expect((await testDb().assignment.findUniqueOrThrow({ where: { id: a.assignmentId } })).status).toBe("DONE");
});

test("n opens the next item of the queue; the home page links each row to its workspace", async ({ page }) => {
  const first = await assignmentFor("queue", "COMMENT_FILTERING", (await demoChange({ index: 1 })).id);
  const second = await testDb().assignment.create({
    data: { studyId: first.studyId, annotatorId: first.accountId, codeChangeId: (await demoChange({ index: 2 })).id, task: "REFERENCE_GRADING", position: 1 },
  });
  await openWorkspace(page, first);
  await expect(page.getByTestId("queue-position")).toContainText("item 1 of 2");
  // the item is not submitted: the first n warns, the second leaves
  await keys(page, "n");
  await expect(page.getByTestId("flash")).toContainText("This item is not submitted yet");
  await expect(page).toHaveURL(new RegExp(`/annotate/${first.assignmentId}$`));
  await keys(page, "n");
  await expect(page).toHaveURL(new RegExp(`/annotate/${second.id}$`));
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(page.getByTestId("queue-position")).toContainText("item 2 of 2");
  // the annotator's home links every row to its workspace
  await page.goto("/annotate");
  await expect(page.getByTestId("assignment-row")).toHaveCount(2);
  await page.getByTestId("assignment-row").first().getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/annotate/${first.assignmentId}$`));
});

test("the ? overlay explains the one keyboard grammar; an annotator who turns moving on off keeps the cursor after a digit", async ({ page }) => {
  const change = await demoChange({ index: 3 });
  const a = await assignmentFor("grammar", "REFERENCE_GRADING", change.id);
  await openWorkspace(page, a);
  const reviews = page.getByTestId("review");
  await keys(page, "2");
  await expect(reviews.nth(1)).toHaveAttribute("aria-current", "true");

  await keys(page, "?");
  const overlay = page.getByTestId("shortcuts");
  await expect(overlay).toContainText("a digit answers the current question and moves on");
  await overlay.getByTestId("digits-move-on").uncheck();
  await expect(overlay).toContainText("and stays there");
  await keys(page, "Escape");
  await keys(page, "4");
  await expect(reviews.nth(1)).toHaveAttribute("aria-current", "true");
  await expect(reviews.nth(1).getByRole("radio", { name: "4" })).toHaveAttribute("aria-checked", "true");
  // the setting is the annotator's own and outlives the page; the page opens on the first review without a stored grade
  await expectSaved(page);
  await page.reload();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(reviews.nth(2)).toHaveAttribute("aria-current", "true");
  await keys(page, "5");
  await expect(reviews.nth(2)).toHaveAttribute("aria-current", "true");
  await expect(reviews.nth(2).getByRole("radio", { name: "5" })).toHaveAttribute("aria-checked", "true");
  await expect(reviews.nth(0).getByRole("radio", { name: "2" })).toHaveAttribute("aria-checked", "true");
  await expectSaved(page);
});

test("the codebook is beside the choice: a code's definition on hover and focus, and a pinned column that covers nothing", async ({ page }) => {
  const change = await demoChange({ mostClaims: true });
  const a = await assignmentFor("codebook", "CLAIM_VERIFICATION", change.id);
  await page.setViewportSize({ width: 1400, height: 900 });
  await openWorkspace(page, a);
  const claim = page.getByTestId("claim-judgement").first();
  await expect(claim.getByTestId("code-definition")).toHaveCount(0);
  await claim.getByRole("radio", { name: "0 Incorrect" }).hover();
  await expect(claim.getByTestId("code-definition")).toHaveText("Incorrect: Concrete evidence contradicts the claim.");
  await page.mouse.move(0, 0);
  await claim.getByRole("radio", { name: "-1 Unverifiable" }).focus();
  await expect(claim.getByTestId("code-definition")).toContainText("Unverifiable: No evidence confirms or contradicts the claim");

  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await keys(page, "g");
  const panel = page.getByTestId("guidelines");
  await expect(panel).toContainText("Claim codes (CRScore Table 8)");
  const [task, guide] = [await page.getByLabel("Task", { exact: true }).boundingBox(), await panel.boundingBox()];
  expect(task && guide && (guide.x >= task.x + task.width || guide.x + guide.width <= task.x)).toBe(true);
  // pinned: it stays open on the next page
  await page.reload();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(panel).toBeVisible();
  await keys(page, "g");
  await expect(panel).toBeHidden();
});

test("the error type goes with the claim just coded: 0 e 3 files reasoning on it, not on the next claim", async ({ page }) => {
  const change = await demoChange({ mostClaims: true });
  const claims = change.pseudoReferences.filter((r) => r.kind === "CLAIM" || r.kind === "IMPLICATION").sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
  const a = await assignmentFor("errtype", "CLAIM_VERIFICATION", change.id);
  await openWorkspace(page, a);
  const cards = page.getByTestId("claim-judgement");
  await keys(page, "0", "e", "3");
  await expect(cards.nth(1)).toHaveAttribute("aria-current", "true");
  await expect(page.getByLabel("Error type of claim 1")).toHaveValue("REASONING");
  await expect(page.getByLabel("Error type of claim 2")).toHaveValue("");
  // on the marked claim once the cursor has moved by itself: j / k, then e
  await keys(page, "1", "k", "e", "5");
  await expect(page.getByLabel("Error type of claim 2")).toHaveValue("LOCALIZATION");
  await expectSaved(page);
  const stored = new Map((await testDb().claimJudgement.findMany({ where: { annotatorId: a.accountId } })).map((j) => [j.pseudoReferenceId, j]));
  expect(stored.get(claims[0].id)).toMatchObject({ code: "INCORRECT", errorType: "REASONING" });
  expect(stored.get(claims[1].id)).toMatchObject({ code: "CORRECT", errorType: "LOCALIZATION" });
  // the shortcut help says which claim the error type goes with
  await keys(page, "?");
  await expect(page.getByTestId("shortcuts")).toContainText("of the claim just coded (0 e 3: incorrect, reasoning), otherwise of the marked claim");
});

test("reopening an item puts the cursor on the first claim without a code, so carrying on changes no earlier answer", async ({ page }) => {
  const change = await demoChange({ mostClaims: true });
  const a = await assignmentFor("reopen", "CLAIM_VERIFICATION", change.id);
  await openWorkspace(page, a);
  const cards = page.getByTestId("claim-judgement");
  await keys(page, "1", "1", "1");
  await expectSaved(page);
  await page.reload();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(cards.nth(3)).toHaveAttribute("aria-current", "true");
  await keys(page, "2");
  await expectSaved(page);
  await expect(cards.nth(1)).toHaveAttribute("data-code", "CORRECT");
  await expect(cards.nth(3)).toHaveAttribute("data-code", "AMBIGUOUS");
  expect((await testDb().claimJudgement.findMany({ where: { annotatorId: a.accountId } })).map((j) => j.code).sort()).toEqual(["AMBIGUOUS", "CORRECT", "CORRECT", "CORRECT"]);
});

test("digits past the last review do nothing: the last grade stays", async ({ page }) => {
  const change = await demoChange({ index: 6 });
  const generated = change.reviews.filter((r) => !r.isReference);
  const a = await assignmentFor("pastend", "REFERENCE_GRADING", change.id);
  await openWorkspace(page, a);
  for (let i = 0; i < generated.length; i++) await keys(page, "3");
  await expect(page.getByTestId("end-of-list")).toBeVisible();
  await keys(page, "1", "5");
  await expectSaved(page);
  const reviews = page.getByTestId("review");
  await expect(reviews.last().getByRole("radio", { name: "3" })).toHaveAttribute("aria-checked", "true");
  const grades = await testDb().referenceGrade.findMany({ where: { annotatorId: a.accountId } });
  expect(grades.map((g) => [g.grade, g.version])).toEqual(generated.map(() => [3, 1]));
  // k goes back to the last review, where a digit answers again
  await keys(page, "k");
  await expect(reviews.last()).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("end-of-list")).toHaveCount(0);
});

test("a refused submit names the reviews and dimensions still missing and moves the cursor to the first", async ({ page }) => {
  const change = await demoChange({ index: 7 });
  const a = await assignmentFor("missing", "REVIEW_RATING", change.id);
  await openWorkspace(page, a);
  const reviews = page.getByTestId("review");
  const count = await reviews.count();
  expect(count).toBeGreaterThanOrEqual(4);
  // each review opens on its pseudo-references: l past them to the scores
  const toScores = Array<string>((await stage2Set(change.id, a.accountId)).length).fill("l");
  for (let i = 0; i < count - 1; i++) {
    // review C gets two scores of three; the last review none
    if (i === 2) await keys(page, ...toScores, "4", "3", "j");
    else await keys(page, ...toScores, "4", "3", "3");
  }
  await expectSaved(page);
  await keys(page, "Control+Enter");
  const last = String.fromCharCode(65 + count - 1);
  await expect(page.getByTestId("flash")).toHaveText(`Not complete yet, still missing: Review C: relevance; Review ${last}: conciseness, comprehensiveness, relevance.`);
  await expect(reviews.nth(2)).toHaveAttribute("aria-current", "true");
  await expect(reviews.nth(2).getByTestId("scale-relevance")).toHaveAttribute("aria-current", "true");
  expect((await testDb().assignment.findUniqueOrThrow({ where: { id: a.assignmentId } })).status).not.toBe("DONE");
  // the digit now answers what was missing
  await keys(page, "5");
  await expectSaved(page);
  const rating = await testDb().reviewRating.findMany({ where: { annotatorId: a.accountId } });
  expect(rating.filter((r) => (r.scores as Record<string, number>).relevance === 5)).toHaveLength(1);
});
