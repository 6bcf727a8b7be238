/**
 * Judge raters in the exports and the cached reports: the exports' consensus is the humans'
 * unless a judge's run opted in (docs/judges.md), as the analyses' is; the long exports say
 * which rater is a judge (other studies keep their columns); the agreement report's fingerprint changes when a judge run writes
 * answers (comment answers too) or a run opts in.
 */
import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from "vitest";
import { startFakeLlm, userText, type FakeLlm } from "../unit/judges/fake-llm";
import { createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";
import { createCommentQuestionsFixture, removeCommentQuestionsFixture, type CommentQuestionsFixture } from "./comment-questions-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { runJudge } = await import("@/lib/judge-runs/run");
const { streamExport } = await import("@/lib/data/exports");
const { taskConsensus } = await import("@/lib/data/consensus");
const { requireStudy } = await import("@/lib/data/studies");
const { cachedAgreementReport, studyFingerprint } = await import("@/lib/data/report-cache");

let fake: FakeLlm;
let fx: AnnotationFixture;
let prs: CommentQuestionsFixture;
const tag = randomUUID().slice(0, 8);
const judge = (name: string) => `${name}-${tag}`;

/** The judge calls review 1 low quality and every other review high quality: the annotators called review 1 high quality. */
const reply = (text: string, answer = text.includes("review 1 of") ? "no" : "yes") => ({ content: `\`\`\`json\n${JSON.stringify({ answer, reason: "because" })}\n\`\`\``, usage: { prompt_tokens: 10, completion_tokens: 5 } });

beforeAll(async () => {
  fake = await startFakeLlm();
  fx = await createAnnotationFixture(db, `export-judge-${tag}`, { changes: 1 });
  prs = await createCommentQuestionsFixture(db, `export-judge-pr-${tag}`);
  const [r0, r1, r2] = fx.changes[0].reviews;
  const { ann1, ann2 } = fx.accounts;
  for (const [annotatorId, reviewId] of [[ann1, r0], [ann2, r0], [ann1, r1], [ann2, r1], [ann1, r2]]) await db.commentFilteringLabel.create({ data: { annotatorId, reviewId, highQuality: true } });
});
beforeEach(() => {
  fake.reset();
  fake.handle((r) => reply(userText(r)));
});
afterAll(async () => {
  await fake.close();
  if (fx) await removeAnnotationFixture(db, fx);
  if (prs) await removeCommentQuestionsFixture(db, prs);
  await db.account.deleteMany({ where: { kind: "JUDGE", email: { endsWith: `-${tag}` } } });
  await db.$disconnect();
});

const llm = () => ({ url: fake.url, model: "gpt-4o-mini", backoffMs: 1, maxBackoffMs: 5_000 });

async function exported(studyId: string, format: "long-csv" | "long-jsonl" | "jsonl" | "wide-csv"): Promise<string> {
  let text = "";
  for await (const chunk of streamExport({ studyId, format, filter: {} })) text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  return text;
}

/** The long export's consensus of the comment filtering question of reviews r0, r1 and r2, and its rows by rater. */
async function longFiltering(): Promise<{ consensus: Record<string, string>; rows: Record<string, string>[] }> {
  const rows = (parse(await exported(fx.studyId, "long-csv"), { columns: true }) as Record<string, string>[]).filter((r) => r.task === "COMMENT_FILTERING" && r.question === "highQuality");
  return { consensus: Object.fromEntries(rows.map((r) => [r.item, r.consensus])), rows };
}

/** The jsonl export's consensus of each review's high quality flag. */
async function jsonlFiltering(): Promise<Record<string, string | null>> {
  const [line] = (await exported(fx.studyId, "jsonl")).trimEnd().split("\n").map((l) => JSON.parse(l) as { reviews: { id: string; consensus: Record<string, string | null> }[] });
  return Object.fromEntries(line.reviews.map((r) => [r.id, r.consensus.highQuality]));
}

/** The analyses' consensus (lib/data/consensus.ts) of the same question, by review external id. */
async function analysesFiltering(): Promise<Record<string, string>> {
  const consensus = await taskConsensus(db, await requireStudy({ id: fx.studyId }, db), "COMMENT_FILTERING");
  const ids = new Map(fx.changes[0].reviews.map((id, i) => [id, `r${i}`]));
  return Object.fromEntries([...consensus].filter(([id]) => ids.has(id)).map(([id, q]) => [ids.get(id)!, String([...q.values()][0].value)]));
}

describe("judge raters in the exports", () => {
  test("the consensus column is the humans' unless the judge's run opted in, as the analyses' consensus", async () => {
    const before = await studyFingerprint(fx.studyId, false);
    const report = await cachedAgreementReport(fx.studyId, {});
    const humans = await longFiltering();
    expect(humans.consensus).toMatchObject({ r0: "1", r1: "1", r2: "" });
    // No judge ran yet: the long columns are the study's as before.
    expect(humans.rows[0]).not.toHaveProperty("raterKind");

    const apart = await runJudge({ study: fx.slug, task: "COMMENT_FILTERING", question: "high-quality", name: judge("apart"), llm: llm() });
    expect(apart.run.status).toBe("DONE");
    expect(await studyFingerprint(fx.studyId, false)).not.toBe(before);
    expect(await cachedAgreementReport(fx.studyId, {})).not.toBe(report);
    const withJudge = await longFiltering();
    // The judge's rows are kept, and the consensus is still the annotators' alone.
    expect(withJudge.rows.filter((r) => r.annotator === `judge:${judge("apart")}`).map((r) => r.item).sort()).toEqual(["human", "r0", "r1", "r2", "r3", "r4", "r5", "r6"]);
    expect(withJudge.consensus).toMatchObject({ r0: "1", r1: "1", r2: "" });
    // Each row says whether its rater is a judge, in CSV and JSONL.
    expect(new Set(withJudge.rows.map((r) => `${r.annotator.startsWith("judge:")}/${r.raterKind}`))).toEqual(new Set(["true/judge", "false/person"]));
    const jsonRows = (await exported(fx.studyId, "long-jsonl")).trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(jsonRows[0]).slice(7, 11)).toEqual(["annotatorId", "annotator", "raterKind", "value"]);
    expect(jsonRows.filter((r) => r.raterKind === "judge").every((r) => r.annotator === `judge:${judge("apart")}`)).toBe(true);
    expect(await jsonlFiltering()).toMatchObject({ r0: "1", r1: "1", r2: null });
    expect(await analysesFiltering()).toMatchObject({ r0: "high-quality", r1: "high-quality" });

    await runJudge({ study: fx.slug, task: "COMMENT_FILTERING", question: "high-quality", name: judge("apart"), temperature: 0.2, inConsensus: true, llm: llm() });
    // Opted in, the judge disagrees on r1 (no consensus) and agrees with the one annotator of r2.
    expect((await longFiltering()).consensus).toMatchObject({ r0: "1", r1: "", r2: "1" });
    expect(await jsonlFiltering()).toMatchObject({ r0: "1", r1: null, r2: "1" });
    expect(await analysesFiltering()).toMatchObject({ r0: "high-quality", r2: "high-quality" });
    expect(await analysesFiltering()).not.toHaveProperty("r1");
  });
});

describe("judge raters and the cached reports", () => {
  test("a run's opt-in changes the fingerprint without changing an answer", async () => {
    await runJudge({ study: fx.slug, task: "COMMENT_FILTERING", question: "high-quality", name: judge("flip"), llm: llm() });
    const before = await studyFingerprint(fx.studyId, false);
    const judgeId = (await db.account.findUniqueOrThrow({ where: { email: `judge:${judge("flip")}` } })).id;
    // What a stopped run resumed with --in-consensus does when every item was answered before it stopped.
    await db.judgeRun.updateMany({ where: { studyId: fx.studyId, judgeId }, data: { inConsensus: true } });
    expect(await studyFingerprint(fx.studyId, false)).not.toBe(before);
  });

  test("a judge's answers of comment questions change the fingerprint", async () => {
    const before = await studyFingerprint(prs.study.studyId, false);
    fake.handle((r) => reply(userText(r), "yes"));
    const { run } = await runJudge({ study: prs.study.slug, task: "COMMENT_QUESTIONS", question: "useful", name: judge("comments"), llm: llm() });
    expect(run).toMatchObject({ status: "DONE" });
    expect(await studyFingerprint(prs.study.studyId, false)).not.toBe(before);
  });
});
