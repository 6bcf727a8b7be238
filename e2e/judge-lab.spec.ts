/**
 * The judge lab in the browser (docs/judges.md): a lead opens the judge lab from the study page,
 * edits a question's prompt on the prompts page (an unknown variable is refused by name, the
 * preview shows a real item's prompt), stores it as a new version and runs it; the worker answers
 * the run against a chat-completions server on loopback that this test starts (the worker's
 * LLM_URL), and the lab shows the new version's row and its point on the agreement–cost
 * scatter; the agreement page shows the judge beside the annotators (SWE-Judge Figure 4).
 */
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { startFakeLlm, userText } from "../tests/unit/judges/fake-llm";
import { createAnnotationFixture } from "../tests/integration/annotation-fixture";
import { startMetricWorker } from "./dashboard-helpers";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

test("a lead edits a judge's prompt, runs it, and sees the new version's row and point in the judge lab", async ({ page }) => {
  test.setTimeout(180_000);
  const tag = randomUUID().slice(0, 8);
  // One change: seven system reviews and the reference, labelled by two annotators for comment filtering.
  const fx = await createAnnotationFixture(testDb(), `judge-e2e-${tag}`, { changes: 1 });
  const lead = await testDb().account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email }, select: { id: true } });
  await testDb().study.update({ where: { id: fx.studyId }, data: { ownerId: lead.id } });
  for (const [n, id] of [...fx.changes[0].reviews, fx.changes[0].reference].entries()) {
    await testDb().commentFilteringLabel.create({ data: { annotatorId: fx.accounts.ann1, reviewId: id, highQuality: n !== 1 } });
    await testDb().commentFilteringLabel.create({ data: { annotatorId: fx.accounts.ann2, reviewId: id, highQuality: n % 3 !== 0 } });
  }
  // The judge: "no" to review 1 only, with usage so that the run has a cost.
  const llm = await startFakeLlm();
  llm.handle((r) => ({ content: JSON.stringify({ answer: userText(r).includes("review 1 of") ? "no" : "yes", reason: "e2e" }), usage: { prompt_tokens: 1000, completion_tokens: 100 } }));
  const stopWorker = await startMetricWorker({ LLM_URL: llm.url });
  try {
    await signIn(page, E2E_ACCOUNTS.lead);
    await page.goto(`/studies/${fx.slug}`);
    await page.getByRole("navigation", { name: "Study tools" }).getByRole("link", { name: "Judge lab" }).click();
    await expect(page.getByRole("heading", { name: "Judge lab" })).toBeVisible();
    await expect(page.getByTestId("judge-lab")).toContainText("No judge has answered yet");
    await page.getByRole("link", { name: "prompts page" }).click();
    await page.getByRole("navigation", { name: "Questions" }).getByRole("link", { name: "high-quality" }).click();
    await expect(page.getByRole("heading", { name: /high-quality/ })).toBeVisible();
    await expect(page.getByTestId("prompt-versions").locator("li")).not.toHaveCount(0);

    // An unknown variable is refused by name; nothing is stored.
    const editor = page.getByRole("form", { name: "Prompt template" });
    const template = `Tag ${tag}. Is this review comment of high quality (actionable and verifiable)?\n\n{{item}}\n\nThe change:\n{{diff}}\n\nAnswer one of {{scale}} as JSON {"answer": ..., "reason": ...}.`;
    await editor.getByLabel(/Template/).fill(`${template}\n{{comment}}`);
    await editor.getByRole("button", { name: "Save as a new version" }).click();
    await expect(editor.getByRole("alert")).toContainText("{{comment}}, which is not a variable");
    // The preview of item 2: the variables filled from review 1, no request sent.
    await editor.getByLabel(/Template/).fill(template);
    await editor.getByLabel("Item").fill("2");
    await editor.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("prompt-preview")).toContainText(`Tag ${tag}.`);
    await expect(page.getByTestId("prompt-preview")).toContainText("review 1 of change 0");
    await expect(page.getByTestId("prompt-preview")).toContainText("Answer one of yes, no as JSON");
    expect(llm.requests).toHaveLength(0);
    await editor.getByRole("button", { name: "Save as a new version" }).click();
    await expect(editor.getByRole("status")).toContainText("Stored as version");
    const stored = await testDb().promptTemplate.findFirstOrThrow({ where: { studyId: fx.studyId, text: template } });
    await expect(page.getByTestId("prompt-versions").locator("li").first()).toHaveAttribute("data-version", stored.version);
    await page.screenshot({ path: test.info().outputPath("judge-prompts.png"), fullPage: true });

    // Run it: queued for the worker, which answers the 8 reviews.
    const runForm = page.getByRole("form", { name: "Run a judge" });
    await expect(runForm.getByLabel("Version")).toHaveValue(stored.version);
    await runForm.getByLabel("Model").fill("gpt-4o-mini");
    await runForm.getByRole("button", { name: "Run" }).click();
    await expect(runForm.getByRole("status")).toContainText("Queued: 8 items");

    await page.getByRole("link", { name: "judge lab" }).click();
    const run = page.getByTestId("judge-run").first();
    await expect(run.locator('td[data-col="status"]')).toHaveText("DONE", { timeout: 90_000 });
    await expect(run.locator('td[data-col="progress"]')).toHaveAttribute("data-value", "1");
    await expect(run.locator('td[data-col="progress"]')).toContainText("8 / 8");
    const row = page.locator(`[data-testid="lab-row"][data-version="${stored.version}"]`);
    await expect(row).toHaveCount(1);
    await expect(row.locator('td[data-col="answers"]')).toHaveText("8");
    await expect(row.locator('td[data-col="model"]')).toHaveText("gpt-4o-mini");
    // $0.00021 an item (gpt-4o-mini's list price): $0.21 per 1,000 items.
    await expect(row.locator('td[data-col="cost"]')).toHaveText("$0.2100");
    const kappa = Number(await row.locator('td[data-col="kappa"]').getAttribute("data-value"));
    expect(kappa).toBeGreaterThan(0);
    await expect(page.getByTestId("lab-scatter")).toHaveAttribute("data-points", "1");
    await expect(page.getByTestId("lab-scatter").locator(".recharts-scatter-symbol")).toHaveCount(1);
    expect(llm.requests).toHaveLength(8);
    await page.screenshot({ path: test.info().outputPath("judge-lab.png"), fullPage: true });

    // The agreement page: the judge beside the annotators.
    await page.goto(`/studies/${fx.slug}/agreement?task=COMMENT_FILTERING`);
    const judges = page.getByTestId("judges-comment_filtering-high-quality");
    await expect(judges.getByTestId("judge-kappa-chart")).toBeVisible();
    await expect(judges.getByTestId("judges-kappa-comment_filtering-high-quality").locator("tbody tr")).toHaveCount(2);
    await expect(judges.getByTestId("judges-consensus-comment_filtering-high-quality")).toContainText(/judge:gpt-4o-mini-[0-9a-f]{8}/);
    await judges.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("agreement-judges.png"), fullPage: true });
  } finally {
    await stopWorker();
    await llm.close();
  }
});
