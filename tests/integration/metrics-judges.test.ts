/**
 * The LLM judges as metric runs, on a real database and pg-boss queue, against a real
 * chat-completions server on loopback with scripted answers: GradedReviews grades stored under
 * the judge's signature (model and prompt version), a null grade with its reason, the reference
 * review as context, the API key sent but stored nowhere; a run without an endpoint FAILED with
 * the not-configured message (library and CLI); a 500 retried; a crashed run resumed without
 * asking the model twice; SWE-Judge's team selected on the study's grades (and reused), given,
 * or refused without human scores; CRScore's reference-free judge on every review.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from "vitest";
import { createClient, Prisma } from "@/lib/db/client";
import { runImport } from "@/lib/data/imports";
import { createJobContext, drainMetricRun, runParams, startMetricRun, type MetricRunRequest } from "@/lib/metric-runs";
import { startQueue } from "@/lib/jobs";
import { createChatClient, createJudgeMetric, GRADEDREVIEWS_PROMPT_VERSION, mapToScale, FIVE_POINT } from "@/lib/judges";
import { scoreVersions } from "./score-versions";
import { studyReviewIds } from "./study-review-ids";
import { startFakeLlm, sweJudgeStep, userText, type FakeLlm, type ReceivedRequest, type Reply } from "../unit/judges/fake-llm";

const url = inject("databaseUrl");
const db = createClient(url);
let boss: PgBoss;
let fake: FakeLlm;
const created: string[] = [];
const API_KEY = "sk-judge-test-secret";

interface ReviewLine {
  id: string;
  text: string;
  isReference?: boolean;
  grade?: number;
  /** Relevance ratings of two annotators. */
  relevance?: [number, number];
}

/** Imports one JSONL code change per entry into a new study with a unique slug; returns its id. */
async function importStudy(prefix: string, changes: { id: string; language: string; diff: string; reviews: ReviewLine[] }[]): Promise<{ id: string; slug: string }> {
  const slug = `${prefix}-${randomUUID().slice(0, 8)}`;
  const lines = changes.map((c) =>
    JSON.stringify({
      id: c.id,
      language: c.language,
      diff: c.diff,
      reviews: c.reviews.map((r, position) => ({
        id: r.id,
        system: r.isReference ? "human" : `sys-${r.id}`,
        text: r.text,
        isReference: r.isReference ?? false,
        position,
        ...(r.grade === undefined ? {} : { grades: [{ annotator: `${prefix}-grader`, grade: r.grade }] }),
        ...(r.relevance === undefined ? {} : { ratings: r.relevance.map((relevance, i) => ({ annotator: `${prefix}-rater-${i}`, scores: { conciseness: 3, relevance } })) }),
      })),
    }),
  );
  const result = await runImport({ study: slug, format: "jsonl", files: [{ name: `${prefix}.jsonl`, content: Buffer.from(`${lines.join("\n")}\n`) }] }, db);
  if (result.status !== "imported") throw new Error(`import refused: ${JSON.stringify(result)}`);
  created.push(result.summary.study.id);
  return { id: result.summary.study.id, slug };
}

const RENAME = "Please rename tmp to something descriptive.";
const CLOSE = "Close the file handle in a finally block.";
/** Two changes: an exact copy of the reference, two good reviews (model says 5), a poor one (2) and one the model never grades. */
const gradedChanges = [
  {
    id: "g0",
    language: "python",
    diff: "@@ -1 +1 @@\n-tmp = load()\n+tmp = load(path)\n",
    reviews: [
      { id: "ref", text: RENAME, isReference: true },
      { id: "exact", text: RENAME },
      { id: "good", text: "GOOD: the name tmp says nothing, rename it." },
      { id: "poor", text: "POOR: add a docstring." },
    ],
  },
  {
    id: "g1",
    language: "java",
    diff: "@@ -3 +3 @@\n-in.read();\n+in.read(buf);\n",
    reviews: [
      { id: "ref", text: CLOSE, isReference: true },
      { id: "good", text: "GOOD: use try-with-resources so the stream is closed." },
      { id: "nograde", text: "NOGRADE: hmm." },
    ],
  },
];

const generated = (r: ReceivedRequest) => /<generated_review>\n([\s\S]*?)\n<\/generated_review>/.exec(userText(r))?.[1] ?? "";

/**
 * The scripted model: GradedReviews grades by the review's first word; CRScore LaaJ 4; SWE-Judge
 * strategies 50, except P5 which answers the review's "q=NN" (so only teams with P5 follow the humans).
 */
function answer(request: ReceivedRequest): Reply {
  const text = userText(request);
  if (text.includes("<generated_review>")) {
    const review = generated(request);
    if (review.startsWith("GOOD")) return { content: "5" };
    if (review.startsWith("POOR")) return { content: "Grade: 2" };
    return { content: "I cannot grade this." };
  }
  if (text.includes("reviews of code changes")) return { content: "4" };
  const step = sweJudgeStep(request);
  if (step === "P4-tests" || step === "P5-points") return { content: "1. the issue is named\n2. a fix is asked for" };
  if (step === "P5") return { content: `{"score": ${/q=(\d+)/.exec(text)?.[1] ?? 0}, "reason": "coverage"}` };
  return { content: '{"score": 50, "reason": "plausible"}' };
}

const context = (env: Record<string, string> = {}) => createJobContext({ env, llmHttp: { backoffMs: 1, maxAttempts: 3, timeoutMs: 10_000 } });
const llm = (model: string, extra: Partial<NonNullable<MetricRunRequest["llm"]>> = {}) => ({ url: fake.url, model, apiKey: API_KEY, ...extra });

/** The run's stored scores of `metric` by review external id ("g0/good"). */
async function storedScores(studyId: string, metric: string, signature: string) {
  const reviews = await db.review.findMany({ where: { codeChange: { studyId } }, include: { codeChange: true } });
  const names = new Map(reviews.map((r) => [r.id, `${r.codeChange.externalId}/${r.externalId}`]));
  const rows = await db.metricScore.findMany({ where: { metric, signature, reviewId: { in: [...names.keys()] } } });
  return new Map(rows.map((r) => [names.get(r.reviewId) as string, r]));
}

beforeAll(async () => {
  boss = await startQueue(url, { supervise: false });
  fake = await startFakeLlm();
});
afterAll(async () => {
  await boss.stop({ graceful: false, wait: true });
  await fake.close();
  await db.study.deleteMany({ where: { id: { in: created } } });
  await db.$disconnect();
});
beforeEach(() => {
  fake.reset();
  fake.handle(answer);
});

describe("llm-judge-gradedreviews as a metric run", () => {
  test("grades every candidate against its change's reference, stored under the judge's signature; the key is sent, stored nowhere", async () => {
    const study = await importStudy("judges-graded", gradedChanges);
    const ctx = context();
    const started = await startMetricRun(ctx, boss, study.id, { metrics: ["llm-judge-gradedreviews"], llm: llm("judge-model") });
    expect(started.run.total).toBe(5); // candidates only: the references are what they are graded against
    expect(started.chunks).toEqual({ total: 1, enqueued: 1, skipped: 0 }); // judges default to chunks of 10
    const run = await drainMetricRun(boss, ctx, started.run.id);
    expect(run).toMatchObject({ status: "DONE", done: 5, total: 5, error: null });

    const [spec] = runParams(run).specs;
    if (spec.kind !== "judge") throw new Error("not a judge spec");
    const expectedKey = createJudgeMetric("llm-judge-gradedreviews", { client: createChatClient({ url: fake.url, model: "judge-model" }, {}) }).signature;
    expect(spec).toMatchObject({ name: "llm-judge-gradedreviews", columns: ["llm-judge-gradedreviews"], signature: expectedKey, llm: { url: fake.url, model: "judge-model" }, needsReference: true, team: null });
    expect(spec.signature).toContain("model:judge-model|");
    expect(spec.signature).toContain(`prompt:${GRADEDREVIEWS_PROMPT_VERSION}|`);

    const scores = await storedScores(study.id, "llm-judge-gradedreviews", spec.signature);
    expect([...scores.keys()].sort()).toEqual(["g0/exact", "g0/good", "g0/poor", "g1/good", "g1/nograde"]);
    expect(scores.get("g0/exact")).toMatchObject({ value: 5, detail: { procedure: "exact-match" } });
    expect(scores.get("g0/good")).toMatchObject({ value: 4, detail: { procedure: "llm", grades: [5, 5, 5] } }); // a model's 5 becomes 4
    expect(scores.get("g1/good")?.value).toBe(4);
    expect(scores.get("g0/poor")).toMatchObject({ value: 2, detail: { grades: [2, 2, 2] } });
    expect(scores.get("g1/nograde")).toMatchObject({ value: null, detail: { reason: "no-valid-grade", procedure: "llm", grades: [] } });

    // 3 trials for each graded review, 3 attempts per trial for the ungradable one, none for the exact copy.
    expect(fake.requests).toHaveLength(3 + 3 + 3 + 9);
    for (const r of fake.requests) {
      expect(r.model).toBe("judge-model");
      expect(r.authorization).toBe(`Bearer ${API_KEY}`);
      // The reference of the review's own change is the context.
      expect(userText(r)).toContain(generated(r).endsWith("closed.") || generated(r).startsWith("NOGRADE") ? CLOSE : RENAME);
    }
    const runRow = await db.metricRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(JSON.stringify(runRow)).not.toContain(API_KEY);
    const details = await db.metricScore.findMany({ where: { reviewId: await studyReviewIds(db, study.id) }, select: { detail: true, signature: true } });
    expect(JSON.stringify(details)).not.toContain(API_KEY);
  });

  test("without an endpoint the run fails at once: FAILED with the not-configured message, nothing asked", async () => {
    const study = await importStudy("judges-unconfigured", gradedChanges.slice(0, 1));
    await expect(startMetricRun(context(), boss, study.id, { metrics: ["llm-judge-gradedreviews", "rouge-l"] })).rejects.toThrow("LLM judge not configured: set LLM_URL");
    const [failed] = await db.metricRun.findMany({ where: { studyId: study.id }, orderBy: { createdAt: "desc" } });
    expect(failed).toMatchObject({ status: "FAILED", metrics: ["llm-judge-gradedreviews", "rouge-l"], total: 0, done: 0 });
    expect(failed.error).toContain("LLM judge not configured: set LLM_URL");
    expect(failed.finishedAt).not.toBeNull();

    await expect(startMetricRun(context({ LLM_URL: fake.url }), boss, study.id, { metrics: ["swe-judge"] })).rejects.toThrow("LLM judge not configured: LLM_URL is set but no model: set LLM_MODEL");
    expect(await db.metricRun.count({ where: { studyId: study.id, status: "FAILED" } })).toBe(2);
    expect(fake.requests).toHaveLength(0);
    // Other metrics still run without an endpoint.
    const ctx = context();
    const rouge = await startMetricRun(ctx, boss, study.id, { metrics: ["rouge-l"] });
    expect((await drainMetricRun(boss, ctx, rouge.run.id)).status).toBe("DONE");
  });

  test("the CLI: exit code 1 with the message when not configured; --llm-url/--llm-model/--llm-api-key compute the run", async () => {
    const study = await importStudy("judges-cli", gradedChanges.slice(1));
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url };
    for (const key of Object.keys(env)) if (key.startsWith("LLM_")) delete env[key];
    const cli = async (...args: string[]) => {
      try {
        const { stdout, stderr } = await promisify(execFile)(path.resolve("node_modules/.bin/tsx"), ["scripts/cli.ts", "metrics", "--study", study.slug, ...args], { env });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code: number; stdout: string; stderr: string };
        return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
      }
    };
    const unconfigured = await cli("--metric", "llm-judge-gradedreviews");
    expect(unconfigured.code).toBe(1);
    expect(unconfigured.stdout).toBe("");
    expect(unconfigured.stderr).toContain("LLM judge not configured: set LLM_URL");
    expect(await db.metricRun.findFirst({ where: { studyId: study.id } })).toMatchObject({ status: "FAILED", error: expect.stringContaining("LLM judge not configured") });

    const done = await cli("--metric", "llm-judge-gradedreviews", "--llm-url", `${fake.url}/v1`, "--llm-model", "cli-model", "--llm-api-key", API_KEY);
    expect(done.stderr).not.toContain("Error");
    expect(done.code).toBe(0);
    expect(done.stdout).not.toContain(API_KEY);
    const output = JSON.parse(done.stdout) as { run: { status: string; total: number }; metrics: { name: string; signature: string; llm: unknown; columns: { scored: number; defined: number }[] }[] };
    expect(output.run).toMatchObject({ status: "DONE", total: 2 });
    expect(output.metrics[0]).toMatchObject({ name: "llm-judge-gradedreviews", llm: { url: `${fake.url}/v1`, model: "cli-model" }, columns: [{ scored: 2, defined: 1 }] });
    expect(output.metrics[0].signature).toContain("model:cli-model|");
    expect(fake.requests.every((r) => r.authorization === `Bearer ${API_KEY}`)).toBe(true);
  }, 120_000);

  test("a 500 is retried and the grade stored; an endpoint that keeps failing fails the run with its message", async () => {
    const study = await importStudy("judges-retry", gradedChanges.slice(0, 1));
    fake.handle((r, i) => (i === 0 ? { status: 500, body: "overloaded" } : answer(r)));
    const ctx = context();
    const started = await startMetricRun(ctx, boss, study.id, { metrics: ["llm-judge-gradedreviews"], llm: llm("retry-model") });
    const run = await drainMetricRun(boss, ctx, started.run.id);
    expect(run).toMatchObject({ status: "DONE", done: 3, error: null });
    const [spec] = runParams(run).specs;
    const scores = await storedScores(study.id, "llm-judge-gradedreviews", spec.signature);
    expect([...scores.values()].map((s) => s.value).sort()).toEqual([2, 4, 5]);
    expect(fake.requests).toHaveLength(1 + 3 + 3);

    fake.reset();
    fake.handle(() => ({ status: 500, body: "down" }));
    const failing = await startMetricRun(ctx, boss, study.id, { metrics: ["llm-judge-gradedreviews"], llm: llm("down-model") });
    const failed = await drainMetricRun(boss, ctx, failing.run.id);
    expect(failed.status).toBe("FAILED");
    expect(failed.error).toMatch(/^chunk 0: LLM request to http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions failed after 3 attempts: HTTP 500: down$/);
    expect(await db.metricScore.count({ where: { signature: runParams(failed).specs[0].signature } })).toBe(0);
  });

  test("LLM_API_KEY goes to LLM_URL only, never to another endpoint a run names", async () => {
    const study = await importStudy("judges-env", gradedChanges.slice(0, 1));
    const env = { LLM_URL: fake.url, LLM_MODEL: "env-model", LLM_API_KEY: "sk-env-key" };
    const ctx = context(env);
    const fromEnv = await startMetricRun(ctx, boss, study.id, { metrics: ["llm-judge-gradedreviews"] });
    expect((await drainMetricRun(boss, ctx, fromEnv.run.id)).status).toBe("DONE");
    expect(runParams(fromEnv.run).specs[0]).toMatchObject({ llm: { url: fake.url, model: "env-model" } });
    expect(fake.requests.map((r) => r.authorization)).toEqual(Array(6).fill("Bearer sk-env-key"));

    fake.reset();
    fake.handle(answer);
    const other = await startMetricRun(context(env), boss, study.id, { metrics: ["llm-judge-gradedreviews"], llm: { url: `${fake.url}/v1`, model: "other-model" } });
    expect((await drainMetricRun(boss, context(env), other.run.id)).status).toBe("DONE");
    expect(fake.requests.map((r) => r.authorization)).toEqual(Array(6).fill(undefined));
  });

  test("a crashed run resumes: stored chunks are skipped and no review is asked twice; asking again computes nothing", async () => {
    const study = await importStudy("judges-resume", gradedChanges);
    const request = { metrics: ["llm-judge-gradedreviews"], chunkSize: 2, llm: llm("resume-model") };
    const first = await startMetricRun(context(), boss, study.id, request);
    expect(first.chunks).toEqual({ total: 3, enqueued: 3, skipped: 0 });
    // The "process" computes one chunk (of 2 reviews, or the last of 1; the queue's order is not the chunks') and dies.
    const halfway = await drainMetricRun(boss, context(), first.run.id, { maxChunks: 1 });
    expect(halfway.status).toBe("RUNNING");
    expect([1, 2]).toContain(halfway.done);
    const askedBefore = fake.requests.length;
    const signature = runParams(first.run).specs[0].signature;
    const kept = await scoreVersions(db, Prisma.sql`s."paramsKey" = ${signature}`);
    expect(kept).toHaveLength(halfway.done);

    const resumed = await startMetricRun(context(), boss, study.id, request);
    expect(resumed).toMatchObject({ resumed: true, run: { id: first.run.id, done: halfway.done }, chunks: { total: 3, enqueued: 2, skipped: 1 } });
    const finished = await drainMetricRun(boss, context(), first.run.id);
    expect(finished).toMatchObject({ status: "DONE", done: 5, total: 5 });
    // Every review was asked exactly as often as one uninterrupted run asks (18 requests).
    expect(fake.requests).toHaveLength(18);
    expect(askedBefore).toBeLessThan(18);
    const rows = await scoreVersions(db, Prisma.sql`s."paramsKey" = ${signature}`);
    expect(rows).toHaveLength(5);
    expect(kept.every((k) => rows.includes(k))).toBe(true);

    fake.reset();
    const again = await startMetricRun(context(), boss, study.id, request);
    expect(again).toMatchObject({ run: { status: "DONE" }, chunks: { enqueued: 0, skipped: 3 } });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("swe-judge and the CRScore judge as metric runs", () => {
  /** Five candidates over two changes whose human grade (or mean relevance) rises with their "q". */
  const sweChanges = (human: "grades" | "relevance" | "none") => {
    const scored = (grade: number) => (human === "grades" ? { grade } : human === "relevance" ? { relevance: [grade, grade === 5 ? 4 : grade] as [number, number] } : {});
    return [
      {
        id: "s0",
        language: "java",
        diff: "@@ -1 +1 @@\n-return name;\n+return account.getName();\n",
        reviews: [
          { id: "ref", text: "This throws when account is null; add a null check.", isReference: true },
          { id: "a", text: "SWE q=20 rename the method.", ...scored(1) },
          { id: "b", text: "SWE q=60 account may be null here.", ...scored(3) },
          { id: "c", text: "SWE q=90 account can be null, check it before getName().", ...scored(5) },
        ],
      },
      {
        id: "s1",
        language: "java",
        diff: "@@ -2 +2 @@\n-list.get(0);\n+list.get(i);\n",
        reviews: [
          { id: "ref", text: "i can exceed the list size; check the bound.", isReference: true },
          { id: "d", text: "SWE q=40 add a comment.", ...scored(2) },
          { id: "e", text: "SWE q=75 i may be out of bounds.", ...scored(4) },
        ],
      },
    ];
  };
  const q = (text: string) => Number(/q=(\d+)/.exec(text)?.[1]);

  test("the team is selected on the study's grades (seeded sample), recorded in the run and the signature, reused when asked again", async () => {
    const study = await importStudy("judges-swe", sweChanges("grades"));
    const ctx = context();
    const started = await startMetricRun(ctx, boss, study.id, { metrics: ["swe-judge"], llm: llm("swe-model") });
    const calibrationRequests = fake.requests.length;
    expect(calibrationRequests).toBeGreaterThan(0);
    const [spec] = runParams(started.run).specs;
    if (spec.kind !== "judge" || !spec.team?.calibration) throw new Error("no calibrated team");
    expect(spec.team.source).toBe("calibrated");
    expect(spec.team.members).toContain("P5");
    expect(spec.team.members).toHaveLength(2); // the smallest team that follows the humans
    expect(spec.signature).toContain(`|team:${spec.team.members.join("+")}|`);
    expect(spec.signature).toContain("model:swe-model|");
    const reviews = await db.review.findMany({ where: { codeChange: { studyId: study.id }, isReference: false }, orderBy: [{ codeChange: { position: "asc" } }, { position: "asc" }] });
    expect(spec.team.calibration).toMatchObject({ human: "reference-grade", seed: 1, reviewIds: reviews.map((r) => r.id), humanScores: [1, 3, 5, 2, 4], excluded: [] });
    // P5 ranks the reviews as the humans do.
    expect(spec.team.calibration.correlation.kendall).toBeCloseTo(1, 12);
    expect(spec.team.calibration.correlation.spearman).toBeCloseTo(1, 12);

    const run = await drainMetricRun(boss, ctx, started.run.id);
    expect(run).toMatchObject({ status: "DONE", done: 5, total: 5 });
    const scores = await storedScores(study.id, "swe-judge", spec.signature);
    expect(scores.size).toBe(5);
    const other = spec.team.members.find((m) => m !== "P5");
    expect(other).toBeDefined();
    for (const review of reviews) {
      const stored = [...scores.values()].find((s) => s.reviewId === review.id);
      expect(stored?.value).toBeCloseTo(mapToScale((50 + q(review.text)) / 2, FIVE_POINT), 12);
      expect(stored?.detail).toMatchObject({ team: spec.team.members, scores: { P5: q(review.text) } });
    }

    // Asked again: the same trials are reused (no model call), so the same signature, nothing to compute.
    fake.reset();
    fake.handle(answer);
    const again = await startMetricRun(context(), boss, study.id, { metrics: ["swe-judge"], llm: llm("swe-model") });
    expect(fake.requests).toHaveLength(0);
    expect(again).toMatchObject({ run: { status: "DONE" }, chunks: { enqueued: 0 } });
    const [reused] = runParams(again.run).specs;
    expect(reused.signature).toBe(spec.signature);
    expect(reused.kind === "judge" && reused.team?.calibration?.reusedFrom).toBe(started.run.id);
  });

  test("without grades the team trials use the mean relevance rating", async () => {
    const study = await importStudy("judges-swe-relevance", sweChanges("relevance"));
    const started = await startMetricRun(context(), boss, study.id, { metrics: ["swe-judge"], llm: llm("swe-model"), chunkSize: 100 });
    const [spec] = runParams(started.run).specs;
    if (spec.kind !== "judge" || !spec.team?.calibration) throw new Error("no calibrated team");
    expect(spec.team.calibration).toMatchObject({ human: "review-rating-relevance", humanScores: [1, 3, 4.5, 2, 4] });
    expect(spec.team.members).toContain("P5");
    const run = await drainMetricRun(boss, context(), started.run.id);
    expect(run).toMatchObject({ status: "DONE", done: 5 });
  });

  test("on the study's own scale: with a 0-4 Likert relevance the ensemble is mapped onto 0-4 and its nearest point kept; the team names the reviews it was selected on", async () => {
    // Relevance 1-4 (the import's scale is 1-5), then the study's scale becomes 0-4.
    const changes = sweChanges("relevance").map((c) => ({ ...c, reviews: c.reviews.map((r) => ("relevance" in r && r.relevance ? { ...r, relevance: r.relevance.map((v) => Math.min(v, 4)) as [number, number] } : r)) }));
    const study = await importStudy("judges-swe-04", changes);
    await db.study.update({ where: { id: study.id }, data: { likertMin: 0, likertMax: 4 } });
    const ctx = context();
    const started = await startMetricRun(ctx, boss, study.id, { metrics: ["swe-judge"], llm: llm("swe-04-model") });
    const [spec] = runParams(started.run).specs;
    if (spec.kind !== "judge" || !spec.team?.calibration) throw new Error("no calibrated team");
    expect(spec.question).toEqual({ key: "relevance", min: 0, max: 4 });
    expect(spec.signature).toContain("|scale:0-4|");
    expect(spec.team.calibration).toMatchObject({ human: "review-rating-relevance", humanScores: [1, 3, 4, 2, 4] });
    expect(spec.team.calibration.items).toEqual([
      { codeChange: "s0", review: "a", system: "sys-a" },
      { codeChange: "s0", review: "b", system: "sys-b" },
      { codeChange: "s0", review: "c", system: "sys-c" },
      { codeChange: "s1", review: "d", system: "sys-d" },
      { codeChange: "s1", review: "e", system: "sys-e" },
    ]);
    expect((await drainMetricRun(boss, ctx, started.run.id)).status).toBe("DONE");
    const scores = await storedScores(study.id, "swe-judge", spec.signature);
    expect(scores.size).toBe(5);
    for (const [name, score] of scores) {
      const text = changes.flatMap((c) => c.reviews.map((r) => [`${c.id}/${r.id}`, r.text])).find(([key]) => key === name)![1];
      // The scripted model: P5 answers the review's q, every other strategy 50.
      const ensemble = spec.team.members.reduce((sum, m) => sum + (m === "P5" ? q(text) : 50), 0) / spec.team.members.length;
      const value = (ensemble / 100) * 4; // §3.3: 0 + ŝ/100 · (4 − 0)
      expect(score.value).toBeCloseTo(value, 12);
      expect(score.detail).toMatchObject({ ensemble, point: Math.min(4, Math.floor(value + 0.5)) });
    }
  });

  test("without human scores SWE-Judge refuses (the paper names no default team) unless a team is given", async () => {
    const study = await importStudy("judges-swe-nohuman", sweChanges("none"));
    await expect(startMetricRun(context(), boss, study.id, { metrics: ["swe-judge"], llm: llm("swe-model") })).rejects.toThrow(/paper names no default team.*--swe-team/);
    expect(await db.metricRun.findFirst({ where: { studyId: study.id } })).toMatchObject({ status: "FAILED", error: expect.stringContaining("paper names no default team") });
    expect(fake.requests).toHaveLength(0);
    await expect(startMetricRun(context(), boss, study.id, { metrics: ["swe-judge"], llm: llm("swe-model", { sweTeam: ["P1b", "P9"] }) })).rejects.toThrow("invalid SWE-Judge team");

    const ctx = context();
    const started = await startMetricRun(ctx, boss, study.id, { metrics: ["swe-judge"], llm: llm("swe-given-model", { sweTeam: ["P1b", "P5"] }) });
    const [spec] = runParams(started.run).specs;
    expect(spec).toMatchObject({ team: { members: ["P1b", "P5"], source: "given", calibration: null } });
    expect(spec.signature).toContain("|team:P1b+P5|");
    expect((await drainMetricRun(boss, ctx, started.run.id)).status).toBe("DONE");
    const scores = await storedScores(study.id, "swe-judge", spec.signature);
    expect(scores.get("s1/e")?.value).toBeCloseTo(mapToScale((50 + 75) / 2, FIVE_POINT), 12);
    // The code change is the context of every strategy that shows it; P5's key points were asked once per change (a model no earlier test asked, so none is in the response cache).
    expect(fake.requests.filter((r) => sweJudgeStep(r) === "P5-points")).toHaveLength(2);
    expect(fake.requests.filter((r) => sweJudgeStep(r) === "P1b").every((r) => userText(r).includes("<code_change>"))).toBe(true);
  });

  test("the CRScore judge is reference-free: every review is scored, the human reference included, with the change's language", async () => {
    const study = await importStudy("judges-crscore", sweChanges("none"));
    const ctx = context();
    const started = await startMetricRun(ctx, boss, study.id, { metrics: ["llm-judge-crscore-rel"], llm: llm("laaj-model") });
    const run = await drainMetricRun(boss, ctx, started.run.id);
    expect(run).toMatchObject({ status: "DONE", total: 7, done: 7 });
    const [spec] = runParams(run).specs;
    expect(spec).toMatchObject({ needsReference: false });
    const scores = await storedScores(study.id, "llm-judge-crscore-rel", spec.signature);
    expect(scores.size).toBe(7);
    expect([...scores.values()].every((s) => s.value === 4)).toBe(true);
    expect(fake.requests.every((r) => userText(r).includes("Now read the java code change"))).toBe(true);
  });
});
