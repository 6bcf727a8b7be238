/**
 * Generating assignments on the assignments page: a preview of what it creates, moves, removes
 * and keeps comes first and creates nothing; the lead confirms, or cancels; a preview made stale
 * by a change underneath is refused and changes nothing.
 */
import { expect, test } from "@playwright/test";
import { unifiedDiff } from "@/lib/diff";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { newAnnotator } from "./workspace-fixtures";

test("generating assignments previews the plan and asks before creating; a stale preview creates nothing", async ({ page }) => {
  const db = testDb();
  const slug = `assignments-e2e-${Date.now()}`;
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const study = await db.study.create({ data: { slug, name: "Assignments e2e", tasks: ["REFERENCE_GRADING"], ownerId: lead.id, annotatorsPerItem: 2 } });
  for (let n = 0; n < 3; n++) {
    const change = await db.codeChange.create({ data: { studyId: study.id, externalId: `gen-${n}`, filePath: `G${n}.java`, language: "java", diff: unifiedDiff("a\n", `a${n}\n`, { path: `G${n}.java` }), oldFile: "a\n", newFile: `a${n}\n`, position: n } });
    await db.review.create({ data: { codeChangeId: change.id, externalId: "human", system: "human", text: `Reference ${n}.`, isReference: true } });
    await db.review.create({ data: { codeChangeId: change.id, externalId: "Auger", system: "Auger", text: `Auger on ${n}`, position: 1 } });
  }
  const annotators = [await newAnnotator("gen-a"), await newAnnotator("gen-b")];
  await db.studyMember.createMany({ data: annotators.map((a) => ({ studyId: study.id, accountId: a.accountId, role: "ANNOTATOR" as const })) });
  const count = () => db.assignment.count({ where: { studyId: study.id } });

  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto(`/studies/${slug}/assignments`);
  const form = page.getByRole("form", { name: "Generate assignments" });
  await form.getByRole("button", { name: "Preview assignments" }).click();
  // three changes, each to both annotators: six new assignments, none made yet
  const preview = page.getByTestId("generate-preview");
  await expect(preview).toContainText("For 2 annotators:");
  await expect(preview.getByTestId("generate-preview-changes")).toHaveText("Assignments: 6 new, 0 moved in their queues, 0 unopened removed, 0 started kept.");
  expect(await count()).toBe(0);
  await page.screenshot({ path: "test-results/assignments-preview.png", fullPage: true });
  await preview.getByRole("button", { name: "Cancel" }).click();
  await expect(preview).toHaveCount(0);
  expect(await count()).toBe(0);

  // a preview made stale (an assignment stored meanwhile) is refused, and nothing is made
  await form.getByRole("button", { name: "Preview assignments" }).click();
  await expect(preview.getByTestId("generate-preview-changes")).toHaveText("Assignments: 6 new, 0 moved in their queues, 0 unopened removed, 0 started kept.");
  const change = await db.codeChange.findFirstOrThrow({ where: { studyId: study.id, externalId: "gen-0" } });
  await db.assignment.create({ data: { studyId: study.id, annotatorId: annotators[0].accountId, codeChangeId: change.id, task: "REFERENCE_GRADING", position: 0, status: "IN_PROGRESS" } });
  await preview.getByRole("button", { name: "Generate: create 6 assignments" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "changed since the preview" })).toHaveText("The study's items, annotators or assignments changed since the preview: nothing was made. Preview the assignments again.");
  expect(await count()).toBe(1);

  // previewed again: five to create; confirmed, they are made
  await form.getByRole("button", { name: "Preview assignments" }).click();
  await expect(preview.getByTestId("generate-preview-changes")).toHaveText(/^Assignments: 5 new, [01] moved in their queues, 0 unopened removed, 0 started kept\.$/);
  await preview.getByRole("button", { name: "Generate: create 5 assignments" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Generated for 2 annotators" })).toContainText("5 created");
  expect(await count()).toBe(6);
});
