/**
 * The judge pages' server side against a chat-completions server on loopback: the prompt editor
 * stores a lead's text as a version (an unknown variable named), previews it on a real item
 * without a request, and refuses another lead and an annotator; a run started from a page waits
 * on the job queue, the worker's subscription answers it, and the lab shows its row (agreement
 * from the agreement report beside tokens, cost per 1,000 items and latency); a re-run of the
 * same version and model through the CLI's path is served from the cache and costs nothing.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { startFakeLlm, userText, type FakeLlm } from "../unit/judges/fake-llm";
import { createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

const url = inject("databaseUrl");
process.env.DATABASE_URL = url;
const { db } = await import("@/lib/db/client");
const { runJudge } = await import("@/lib/judge-runs/run");
const { startWebJudgeRun, resumeWebJudgeRun } = await import("@/lib/judge-runs/web");
const { workJudgeRuns } = await import("@/lib/judge-runs/work");
const { jobIdOf, JUDGE_QUEUE, sendQueue, startQueue } = await import("@/lib/jobs");
const { addLeadPromptVersion, judgeLab, judgePromptEditor, previewJudgePrompt } = await import("@/lib/data/judge-lab");

let fake: FakeLlm;
let fx: AnnotationFixture;
const tag = randomUUID().slice(0, 8);
const lead = () => ({ id: fx.accounts.lead, role: "LEAD" as const });
const question = () => ({ slug: fx.slug, task: "COMMENT_FILTERING" as const, question: "high-quality" });
const TEMPLATE = `Is this comment of high quality?\n{{item}}\n\nThe change:\n{{diff}}\n\nAnswer one of {{scale}} as JSON {"answer": …, "reason": …}. Tag ${tag}.`;
let version = "";

beforeAll(async () => {
  fake = await startFakeLlm();
  // The judge says yes but to review 1; ann1 answers as the judge, ann2 says no to reviews 0, 3 and 6.
  fake.handle((r) => ({ content: JSON.stringify({ answer: userText(r).includes("review 1 of") ? "no" : "yes", reason: "r" }), usage: { prompt_tokens: 1000, completion_tokens: 100 } }));
  fx = await createAnnotationFixture(db, `judge-lab-${tag}`, { changes: 1 });
  // The seven system reviews and the human reference, all items of comment filtering.
  for (const [n, id] of [...fx.changes[0].reviews, fx.changes[0].reference].entries()) {
    await db.commentFilteringLabel.create({ data: { annotatorId: fx.accounts.ann1, reviewId: id, highQuality: n !== 1 } });
    await db.commentFilteringLabel.create({ data: { annotatorId: fx.accounts.ann2, reviewId: id, highQuality: n % 3 !== 0 } });
  }
  process.env.LLM_URL = fake.url;
});
afterAll(async () => {
  delete process.env.LLM_URL;
  await fake.close();
  await (await sendQueue()).stop({ graceful: false, wait: true });
  if (fx) await removeAnnotationFixture(db, fx);
  await db.account.deleteMany({ where: { kind: "JUDGE", email: { endsWith: `-${tag}` } } });
  await db.$disconnect();
});

describe("the prompt editor", () => {
  test("a lead's text is a new version, listed first before the presets; an unknown variable is refused by name", async () => {
    await expect(addLeadPromptVersion(lead(), { ...question(), text: `${TEMPLATE} {{comment}}` })).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(/names \{\{comment\}\}, which is not a variable/) });
    const added = await addLeadPromptVersion(lead(), { ...question(), text: TEMPLATE });
    expect(added).toMatchObject({ version: expect.stringMatching(/^[0-9a-f]{64}$/), stored: true });
    version = added.version;
    expect(await addLeadPromptVersion(lead(), { ...question(), text: TEMPLATE })).toEqual({ version, stored: false });
    const editor = await judgePromptEditor(lead(), fx.slug, { task: "COMMENT_FILTERING", question: "high-quality" });
    expect(editor!.question).toMatchObject({ key: "high-quality" });
    expect(editor!.versions[0]).toMatchObject({ version, preset: "" });
    expect(editor!.versions.slice(1).map((v) => v.preset)).toEqual(expect.arrayContaining(["product", "ccrab-filter"]));
  });

  test("the preview fills the variables from a real item, in study order, and sends nothing", async () => {
    const before = fake.requests.length;
    const shown = await previewJudgePrompt(lead(), { ...question(), text: TEMPLATE, item: 2 });
    const review = await db.review.findUniqueOrThrow({ where: { id: fx.changes[0].reviews[1] } });
    const change = await db.codeChange.findUniqueOrThrow({ where: { id: fx.changes[0].id } });
    expect(shown.itemId).toBe(review.id);
    expect(shown.prompt).toBe(`Is this comment of high quality?\n${review.text}\n\nThe change:\n${change.diff}\n\nAnswer one of yes, no as JSON {"answer": …, "reason": …}. Tag ${tag}.`);
    expect(fake.requests.length).toBe(before);
    await expect(previewJudgePrompt(lead(), { ...question(), text: TEMPLATE, item: 99 })).rejects.toMatchObject({ code: "NOT_FOUND", message: 'the study has fewer than 99 items for question "high-quality"' });
    await expect(previewJudgePrompt(lead(), { ...question(), text: "{{itme}}", item: 1 })).rejects.toMatchObject({ message: expect.stringMatching(/\{\{itme\}\}/) });
  });

  test("another lead and an annotator are refused as if the study did not exist", async () => {
    for (const account of [{ id: fx.accounts.ann3, role: "LEAD" as const }, { id: fx.accounts.ann1, role: "ANNOTATOR" as const }]) {
      await expect(addLeadPromptVersion(account, { ...question(), text: `${TEMPLATE} other` })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(previewJudgePrompt(account, { ...question(), text: TEMPLATE, item: 1 })).rejects.toMatchObject({ code: "NOT_FOUND" });
      expect(await judgePromptEditor(account, fx.slug, {})).toBeNull();
      expect(await judgeLab(account, fx.slug)).toBeNull();
    }
    expect(await db.promptTemplate.count({ where: { studyId: fx.studyId, text: `${TEMPLATE} other` } })).toBe(0);
  });
});

describe("runs from a page, and the judge lab", () => {
  test("a run waits on the job queue; the worker answers it; the lab shows its agreement, tokens, cost and latency", async () => {
    const started = await startWebJudgeRun(lead(), { ...question(), promptVersion: version.slice(0, 12), model: "gpt-4o-mini", name: `queued-${tag}` });
    expect(started).toMatchObject({ status: "QUEUED", total: 8, done: 0, resumed: false });
    const boss = await startQueue(url, { supervise: false });
    try {
      expect(await boss.getJobById(JUDGE_QUEUE, jobIdOf(`judge-run:${started.runId}`))).toMatchObject({ data: { runId: started.runId } });
      await workJudgeRuns(boss);
      const deadline = Date.now() + 30_000;
      while ((await db.judgeRun.findUniqueOrThrow({ where: { id: started.runId } })).status !== "DONE" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await boss.stop({ graceful: true, wait: true });
    }
    expect(await db.judgeRun.findUniqueOrThrow({ where: { id: started.runId } })).toMatchObject({ status: "DONE", done: 8, promptVersion: version, model: "gpt-4o-mini" });
    expect(fake.requests).toHaveLength(8);

    const lab = (await judgeLab(lead(), fx.slug))!;
    expect(lab.runs.find((r) => r.id === started.runId)).toMatchObject({ rater: `judge:queued-${tag}`, status: "DONE", total: 8, done: 8, answers: 8, parseFailures: 0, cached: 0, tokens: 8 * 1100 });
    const row = lab.rows.find((r) => r.rater === `judge:queued-${tag}`)!;
    // gpt-4o-mini: $0.15 and $0.60 per million input and output tokens: 1000 · 0.15e-6 + 100 · 0.6e-6 = $0.00021 an item.
    expect(row).toMatchObject({ promptVersion: version, model: "gpt-4o-mini", items: 8, answers: 8, parseFailures: 0, cached: 0, promptTokens: 8000, completionTokens: 800, notes: [] });
    expect(row.costUsd).toBeCloseTo(8 * 0.00021, 12);
    expect(row.costPerThousand).toBeCloseTo(0.21, 12);
    expect(row.latencyMedianMs).not.toBeNull();
    expect(row.latencyP95Ms!).toBeGreaterThanOrEqual(row.latencyMedianMs!);
    // ann1 answers as the judge (κ 1); ann2: yes but to reviews 0, 3 and 6. The judge's κ with ann2 and ann1's with ann2 are the same: the mean Human–Judge κ is (1 + κ₂)/2.
    const q = (await import("@/lib/data/reports")).agreementReport;
    const report = await q(fx.studyId, { task: "COMMENT_FILTERING", bootstrap: { nResamples: 0 } }, db);
    const judges = report.tasks[0].questions[0].judges!;
    const withAnn2 = judges.humanJudge[`judge:queued-${tag}`].perAnnotator.find((p) => p.rater.id === fx.accounts.ann2)!.value!;
    expect(row.kappa).toBeCloseTo((1 + withAnn2) / 2, 12);
    expect(row.humanHuman).toBeCloseTo(withAnn2, 12);
    expect(row.versusConsensus).toMatchObject({ measure: "F1" });
  });

  test("a re-run of the version by the CLI's path is served from the cache: no request, nothing spent, counted as cached", async () => {
    const before = fake.requests.length;
    const { run } = await runJudge({ ...question(), study: fx.slug, promptVersion: version, name: `cached-${tag}`, llm: { model: "gpt-4o-mini" } });
    expect(run.status).toBe("DONE");
    expect(fake.requests.length).toBe(before);
    const row = (await judgeLab(lead(), fx.slug))!.rows.find((r) => r.rater === `judge:cached-${tag}`)!;
    expect(row).toMatchObject({ items: 8, answers: 8, cached: 8, promptTokens: 0, completionTokens: 0, costUsd: 0, costPerThousand: null, latencyMedianMs: null, notes: ["every answer came from the cache"] });
  });

  test("a run its worker did not finish is resumed from the lab: queued again, it answers only the items left", async () => {
    const started = await startWebJudgeRun(lead(), { ...question(), promptVersion: version, model: "gpt-4o-mini", name: `resumed-${tag}`, temperature: 0.5 });
    // As a worker stopped part way would leave it (the same run, stopped by a budget on the CLI's path).
    await runJudge({ ...question(), study: fx.slug, promptVersion: version, name: `resumed-${tag}`, temperature: 0.5, budgetTokens: 3 * 1100, llm: { model: "gpt-4o-mini" } });
    const stopped = await db.judgeRun.findUniqueOrThrow({ where: { id: started.runId } });
    expect(stopped).toMatchObject({ status: "FAILED" });
    expect(stopped.done).toBeGreaterThan(0);
    expect(stopped.done).toBeLessThan(8);
    const before = fake.requests.length;
    expect(await resumeWebJudgeRun(lead(), { slug: fx.slug, runId: started.runId })).toMatchObject({ runId: started.runId, status: "QUEUED", done: stopped.done });
    await db.judgeRun.update({ where: { id: started.runId }, data: { budgetTokens: null } });
    const boss = await startQueue(url, { supervise: false });
    try {
      await workJudgeRuns(boss);
      const deadline = Date.now() + 30_000;
      while ((await db.judgeRun.findUniqueOrThrow({ where: { id: started.runId } })).status !== "DONE" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await boss.stop({ graceful: true, wait: true });
    }
    expect(await db.judgeRun.findUniqueOrThrow({ where: { id: started.runId } })).toMatchObject({ status: "DONE", done: 8 });
    expect(fake.requests.length - before).toBe(8 - stopped.done);
  });

  test("a done run cannot be resumed; another study's run is not found; a model with no price says so", async () => {
    const done = await db.judgeRun.findFirstOrThrow({ where: { studyId: fx.studyId, status: "DONE" } });
    await expect(resumeWebJudgeRun(lead(), { slug: fx.slug, runId: done.id })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(resumeWebJudgeRun({ id: fx.accounts.ann3, role: "LEAD" }, { slug: fx.slug, runId: done.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(resumeWebJudgeRun(lead(), { slug: fx.slug, runId: "no-such-run" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await runJudge({ ...question(), study: fx.slug, promptVersion: version, name: `local-${tag}`, llm: { model: "local-model" } });
    const row = (await judgeLab(lead(), fx.slug))!.rows.find((r) => r.rater === `judge:local-${tag}`)!;
    expect(row).toMatchObject({ model: "local-model", costUsd: null, costPerThousand: null, notes: ["no price"] });
  });
});
