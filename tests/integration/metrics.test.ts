/**
 * Metric jobs on a real database and pg-boss queue: the offline default computes CRScore and
 * embeddingSim for the demo study; runs are resumable (a crashed run's stored chunks are skipped).
 */
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { insertMetricScores, listStudyMetrics, metricValuesForStudy } from "@/lib/data/metric-scores";
import { createClient, Prisma } from "@/lib/db/client";
import { TFIDF_MODEL } from "@/lib/embeddings";
import { type ChunkJobData, chunkJobId, createJobContext, drainMetricRun, listMetricRuns, processChunk, requestMetricRun, runParams, startMetricRun, workMetricChunks } from "@/lib/metric-runs";
import { METRIC_QUEUE, startQueue } from "@/lib/jobs";
import { storeChunkScores } from "@/lib/data/metric-runs";
import { loadReviewsToScore } from "@/lib/data/reviews-to-score";
import { crscoreFromBestMatches, getReferenceMetric, splitReviewSentences } from "@/lib/metrics";
import { seedDemo } from "@/lib/data/demo-study";
import { scoreVersions } from "./score-versions";
import { studyReviewIds } from "./study-review-ids";

const url = inject("databaseUrl");
const db = createClient(url);
let boss: PgBoss;
/** Studies this file created: removed afterwards, as the integration database is shared by all files. */
const created: string[] = [];

/** A study of `changes` code changes, each with a reference review, three candidates and two pseudo-references. */
async function createSmallStudy(slug: string, changes: number): Promise<string> {
  const study = await db.study.create({ data: { slug, name: slug, tasks: ["REVIEW_RATING"] } });
  created.push(study.id);
  for (let c = 0; c < changes; c++) {
    await db.codeChange.create({
      data: {
        studyId: study.id,
        externalId: `change-${c}`,
        language: c % 2 ? "java" : "python",
        diff: `--- a/f${c}.py\n+++ b/f${c}.py\n@@ -1 +1 @@\n-x = ${c}\n+x = ${c + 1}\n`,
        position: c,
        pseudoReferences: {
          create: [
            { externalId: "p1", text: `The change increments the constant x in module f${c}.`, kind: "CLAIM", source: "test", position: 0 },
            { externalId: "p2", text: `The variable name x is not descriptive in f${c}.`, kind: "SMELL", source: "test", position: 1 },
          ],
        },
        reviews: {
          create: [
            { externalId: "ref", system: "msg", text: `Why is x incremented here? Please explain the new value of x.`, isReference: true, position: 0 },
            { externalId: "a", system: "sys-a", text: `The constant x is incremented. Consider renaming x to something descriptive.`, position: 1 },
            { externalId: "b", system: "sys-b", text: `Please add a test.\nLooks fine otherwise`, position: 2 },
            { externalId: "c", system: "sys-c", text: c === 0 ? "" : `Why is x incremented?`, position: 3 },
          ],
        },
      },
    });
  }
  return study.id;
}

beforeAll(async () => {
  boss = await startQueue(url, { supervise: false });
});
afterAll(async () => {
  await boss.stop({ graceful: false, wait: true });
  await db.study.deleteMany({ where: { id: { in: created } } });
  await db.$disconnect();
});

describe("metric jobs", () => {
  test("the offline default computes CRScore and embeddingSim for the demo study, labelled and with tau calibrated by the paper's procedure", async () => {
    const demo = await seedDemo(db);
    const { studyId } = demo;
    if (demo.created) created.push(studyId);
    const context = createJobContext();
    const started = await startMetricRun(context, boss, studyId, { metrics: ["crscore", "embedding-sim", "bleu-codereviewer"] });
    const run = await drainMetricRun(boss, context, started.run.id);
    expect(run.status).toBe("DONE");
    expect(run.done).toBe(run.total);
    const reviews = await db.review.findMany({ where: { codeChange: { studyId } }, include: { codeChange: { include: { pseudoReferences: true } } } });
    expect(run.total).toBe(reviews.length);

    const params = runParams(run);
    expect(params.embedding).toMatchObject({ model: TFIDF_MODEL, offline: true, url: null });
    const crscore = params.specs.find((s) => s.kind === "crscore");
    if (crscore?.kind !== "crscore") throw new Error("no crscore spec");
    // The demo's annotators rated its systems' relevance: the best-rated one's review sentences give τ (CRScore §3.3).
    expect(crscore.tauSource).toBe("best-system");
    expect(crscore.tauCalibration).toMatchObject({ system: expect.any(String), sentences: expect.any(Number) });
    expect(crscore.signature).toContain(`|tau-source:best-system|tau-system:${crscore.tauCalibration?.system}|tau-items:${crscore.tauCalibration?.items}|`);
    expect(crscore.tau).toBeGreaterThan(0);
    expect(crscore.tau).toBeLessThan(1);
    expect(crscore.signature).toContain(`emb:${TFIDF_MODEL}|`);
    expect(crscore.signature).toContain(`tau:${crscore.tau.toFixed(4)}`);

    const rel = await metricValuesForStudy(studyId, "crscore-rel", crscore.signature, db);
    const withReferences = reviews.filter((r) => r.codeChange.pseudoReferences.length > 0 && splitReviewSentences(r.text).length > 0);
    expect(rel?.values.size).toBe(reviews.filter((r) => r.codeChange.pseudoReferences.length > 0).length);
    // Stored best matches reproduce the stored Rel at the stored tau.
    for (const review of withReferences) {
      const detail = rel?.details.get(review.id) as { reviewSentenceBest: (number | null)[]; pseudoReferenceBest: (number | null)[] };
      expect(detail.reviewSentenceBest).toHaveLength(splitReviewSentences(review.text).length);
      expect(crscoreFromBestMatches(detail, crscore.tau).relevance).toBe(rel?.values.get(review.id));
    }
    const values = [...(rel?.values.values() ?? [])];
    expect(values.some((v) => v > 0)).toBe(true);
    expect(values.every((v) => v >= 0 && v <= 1)).toBe(true);

    // Reference-based metrics skip the human reference and score candidates against it.
    const bleu = await metricValuesForStudy(studyId, "bleu-codereviewer", undefined, db);
    const candidate = reviews.find((r) => !r.isReference && reviews.some((x) => x.isReference && x.codeChangeId === r.codeChangeId)) as (typeof reviews)[number];
    const reference = reviews.find((x) => x.isReference && x.codeChangeId === candidate.codeChangeId) as (typeof reviews)[number];
    expect(bleu?.values.get(candidate.id)).toBe(getReferenceMetric("bleu-codereviewer")?.score(candidate.text, reference.text));
    expect(bleu?.values.has(reference.id)).toBe(false);
    const sims = await metricValuesForStudy(studyId, "embedding-sim", undefined, db);
    expect(sims?.signature).toContain(TFIDF_MODEL);

    // Asking again computes nothing.
    const again = await startMetricRun(createJobContext(), boss, studyId, { metrics: ["crscore", "embedding-sim", "bleu-codereviewer"] });
    expect(again.run.status).toBe("DONE");
    expect(again.chunks.enqueued).toBe(0);
  });

  test("a crashed run resumes: stored chunks are skipped, an abandoned active job is replaced, nothing is computed twice", async () => {
    const studyId = await createSmallStudy("resume-study", 10);
    const request = { metrics: ["rouge-l", "crscore"], chunkSize: 4 };
    const first = await startMetricRun(createJobContext(), boss, studyId, request);
    expect(first.run.total).toBe(40);
    expect(first.chunks).toEqual({ total: 10, enqueued: 10, skipped: 0 });

    // The "process" computes two chunks, takes a third and dies holding it.
    const halfway = await drainMetricRun(boss, createJobContext(), first.run.id, { maxChunks: 2 });
    expect(halfway.done).toBe(8);
    expect(halfway.status).toBe("RUNNING");
    const [held] = await boss.fetch(METRIC_QUEUE);
    expect(held).toBeDefined();

    // Restart: a new process asks for the same computation.
    const resumed = await startMetricRun(createJobContext(), boss, studyId, request);
    expect(resumed.resumed).toBe(true);
    expect(resumed.run.id).toBe(first.run.id);
    expect(resumed.run.done).toBe(8);
    expect(resumed.chunks).toEqual({ total: 10, enqueued: 8, skipped: 2 });
    const ofStudy = Prisma.sql`s."candidateReviewId" IN (SELECT r.id FROM "CandidateReview" r JOIN "CodeChange" c ON c.id = r."codeChangeId" WHERE c."studyId" = ${studyId})`;
    const before = await scoreVersions(db, ofStudy);

    const finished = await drainMetricRun(boss, createJobContext(), first.run.id);
    expect(finished).toMatchObject({ status: "DONE", done: 40, total: 40, error: null });
    const rows = await db.metricScore.findMany({ where: { reviewId: await studyReviewIds(db, studyId) }, select: { metric: true } });
    // rouge-l for the 30 candidates, three CRScore columns for all 40 reviews.
    expect(rows.filter((r) => r.metric === "rouge-l")).toHaveLength(30);
    expect(rows.filter((r) => r.metric.startsWith("crscore-"))).toHaveLength(120);
    // Rows of the first two chunks were kept, not recomputed.
    const kept = new Set(await scoreVersions(db, ofStudy));
    expect(before).toHaveLength(30);
    expect(before.every((r) => kept.has(r))).toBe(true);
    // The empty review: CRScore 0 ("empty-review"); rouge-l defined (0).
    const empty = await db.review.findFirstOrThrow({ where: { codeChange: { studyId, externalId: "change-0" }, externalId: "c" } });
    const emptyScores = await db.metricScore.findMany({ where: { reviewId: empty.id } });
    expect(emptyScores.find((s) => s.metric === "crscore-rel")).toMatchObject({ value: 0, detail: expect.objectContaining({ reason: "empty-review" }) });
    expect((await listStudyMetrics(studyId, db)).map((v) => [v.metric, v.count])).toEqual([
      ["crscore-comp", 40],
      ["crscore-con", 40],
      ["crscore-rel", 40],
      ["rouge-l", 30],
    ]);
  });

  test("a long-running worker (scripts/worker.ts) computes runs started elsewhere", async () => {
    const studyId = await createSmallStudy("worker-study", 3);
    // As a web page does: enqueue only.
    const started = await requestMetricRun(createJobContext(), studyId, { metrics: ["chrf"], chunkSize: 2 });
    expect((await listMetricRuns(studyId))[0]).toMatchObject({ id: started.run.id, status: "QUEUED", total: 9, done: 0, embedding: null });
    const worker = await startQueue(url);
    await workMetricChunks(worker, { context: createJobContext() });
    let run = started.run;
    for (let i = 0; i < 100 && run.status !== "DONE"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      run = await db.metricRun.findUniqueOrThrow({ where: { id: started.run.id } });
    }
    await worker.stop({ graceful: true, wait: true });
    expect(run).toMatchObject({ status: "DONE", done: 9, total: 9 });
    expect((await listMetricRuns(studyId))[0]).toMatchObject({ status: "DONE", done: 9 });
  });

  test("a failing chunk fails the run with its message", async () => {
    const studyId = await createSmallStudy("failing-study", 2);
    const context = createJobContext({ http: { maxRetries: 1, backoffMs: 1, timeoutMs: 2000 } });
    // Planning embeds nothing for embedding-sim, so the run starts; its chunks cannot reach the endpoint.
    const started = await startMetricRun(context, boss, studyId, { metrics: ["embedding-sim"], embedding: { url: "http://127.0.0.1:9/v1", model: "unreachable" } });
    const run = await drainMetricRun(boss, context, started.run.id);
    expect(run.status).toBe("FAILED");
    expect(run.error).toMatch(/chunk 0: embeddings request failed/);
  });

  test("a chunk's scores stored meanwhile by another worker are kept, the rest stored and only their reviews counted, the statement not failed", async () => {
    const studyId = await createSmallStudy("store-twice", 1);
    const { run } = await startMetricRun(createJobContext(), boss, studyId, { metrics: ["rouge-l"] });
    const [a, b] = await db.review.findMany({ where: { codeChange: { studyId }, isReference: false }, orderBy: { position: "asc" } });
    const row = (reviewId: string, value: number) => ({ reviewId, metric: "rouge-l", signature: "test", value });
    // The other worker's store: review a only.
    expect(await storeChunkScores(run.id, [row(a.id, 0.5)], 1)).toEqual({ completed: 1, finished: null });
    // This worker read the chunk before and stores a and b: the plain INSERT fails on a, and b alone is stored and counted.
    expect(await storeChunkScores(run.id, [row(a.id, 0.9), row(b.id, 0.7)], 2)).toEqual({ completed: 1, finished: null });
    const stored = await db.metricScore.findMany({ where: { signature: "test", reviewId: await studyReviewIds(db, studyId) }, select: { reviewId: true, value: true } });
    expect(new Map(stored.map((s) => [s.reviewId, s.value]))).toEqual(new Map([[a.id, 0.5], [b.id, 0.7]]));
    expect(await db.metricRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ done: 2, total: 3, status: "RUNNING" });
  });

  test("chunks are planned fresh when none of their scores is stored, and a fresh chunk computed after another worker stored some keeps them and counts each review once", async () => {
    const studyId = await createSmallStudy("fresh-chunks", 2);
    const request = { metrics: ["rouge-l"], chunkSize: 3 };
    const { run } = await startMetricRun(createJobContext(), boss, studyId, request);
    const job = async (runId: string, chunk: number) => (await boss.getJobById<ChunkJobData>(METRIC_QUEUE, chunkJobId(runId, chunk)))!.data;
    expect([(await job(run.id, 0)).fresh, (await job(run.id, 1)).fresh]).toEqual([true, true]);
    const [first] = (await job(run.id, 0)).reviewIds;
    const { signature } = runParams(run).specs[0];
    // Another worker stores the chunk's first score after the planning.
    await storeChunkScores(run.id, [{ reviewId: first, metric: "rouge-l", signature, value: 0.5 }], 1);

    // This worker computes chunk 0 without reading its stored scores: its other two reviews are stored and counted.
    expect(await processChunk(createJobContext(), await job(run.id, 0))).toBe(2);
    expect(await db.metricRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ done: 3, total: 6, status: "RUNNING" });
    // Chunk 0's job is still queued (as after a crash between store and completion): run again, it counts nothing more.
    expect(await drainMetricRun(boss, createJobContext(), run.id)).toMatchObject({ done: 6, total: 6, status: "DONE" });
    const stored = await db.metricScore.findMany({ where: { metric: "rouge-l", signature, reviewId: await studyReviewIds(db, studyId) }, select: { reviewId: true, value: true } });
    expect(stored).toHaveLength(6);
    expect(stored.find((s) => s.reviewId === first)?.value).toBe(0.5);

    // Planned again with chunk 0 partly stored (its other scores deleted): chunk 0 reads what is stored, chunk 1 (none stored) does not.
    await db.metricScore.deleteMany({ where: { metric: "rouge-l", signature, reviewId: { in: (await studyReviewIds(db, studyId)).in.filter((id) => id !== first) } } });
    const again = await startMetricRun(createJobContext(), boss, studyId, request);
    expect(again.run.done).toBe(1);
    expect([(await job(again.run.id, 0)).fresh, (await job(again.run.id, 1)).fresh]).toEqual([false, true]);
    expect(await drainMetricRun(boss, createJobContext(), again.run.id)).toMatchObject({ done: 6, total: 6, status: "DONE" });
  });

  test("stored scores read back as the same numbers, whatever their magnitude, through a chunk's store (pg) and through insertMetricScores (Prisma)", async () => {
    const studyId = await createSmallStudy("scores-exact", 1);
    const { run } = await startMetricRun(createJobContext(), boss, studyId, { metrics: ["rouge-l"] });
    const [a, b] = await db.review.findMany({ where: { codeChange: { studyId }, isReference: false }, orderBy: { position: "asc" } });
    const values = [0.11764705882352941, 1 / 3, -2.5e-7, 1.7976931348623157e308, 5e-324, 123456789.12345679, 0, 1e21, 2 ** 53 + 2, null];
    const rows = (reviewId: string, metric: string) => values.map((value, i) => ({ reviewId: reviewId, metric, signature: `exact-${i}`, value, detail: { best: [value, 0.1 + 0.2], reason: i === 9 ? "empty-review" : undefined } }));
    await storeChunkScores(run.id, rows(a.id, "rouge-l"), 1);
    await insertMetricScores(rows(b.id, "imported"), {}, db);
    for (const [reviewId, metric] of [[a.id, "rouge-l"], [b.id, "imported"]]) {
      const stored = await db.metricScore.findMany({ where: { reviewId: reviewId, metric }, select: { signature: true, value: true, detail: true } });
      expect(new Map(stored.map((s) => [s.signature, [s.value, s.detail]]))).toEqual(new Map(rows(reviewId, metric).map((r) => [r.signature, [r.value, JSON.parse(JSON.stringify(r.detail))]])));
    }
  });

  test("a metric's values: the variant computed last unless one is named, defined values only with their details, null for a metric never stored", async () => {
    const studyId = await createSmallStudy("values-variants", 1);
    const [a, b] = await db.review.findMany({ where: { codeChange: { studyId }, isReference: false }, orderBy: { position: "asc" } });
    await insertMetricScores([{ reviewId: a.id, metric: "m", signature: "old", value: 0.1 }], {}, db);
    await insertMetricScores([{ reviewId: a.id, metric: "m", signature: "new", value: 0.2, detail: { best: [0.2] } }, { reviewId: b.id, metric: "m", signature: "new", value: null, detail: { reason: "empty-review" } }], {}, db);
    // The old variant's score recomputed later than the new's rows makes it the newest.
    await db.metricScore.updateMany({ where: { reviewId: a.id, metric: "m", signature: "old" }, data: { computedAt: new Date(Date.now() + 60_000) } });
    const newest = await metricValuesForStudy(studyId, "m", undefined, db);
    expect(newest).toEqual({ metric: "m", signature: "old", values: new Map([[a.id, 0.1]]), details: new Map() });
    const named = await metricValuesForStudy(studyId, "m", "new", db);
    expect(named).toEqual({ metric: "m", signature: "new", values: new Map([[a.id, 0.2]]), details: new Map([[a.id, { best: [0.2] }]]) });
    expect((await metricValuesForStudy(studyId, "m", "new", db, { details: false }))?.details).toEqual(new Map());
    // Every value of the variant undefined: the variant, with no values.
    await db.metricScore.updateMany({ where: { metric: "m", signature: "new", reviewId: { in: [a.id, b.id] } }, data: { value: null, computedAt: new Date(Date.now() + 120_000) } });
    expect(await metricValuesForStudy(studyId, "m", undefined, db)).toEqual({ metric: "m", signature: "new", values: new Map(), details: new Map() });
    // A named variant with no rows is an empty one; a metric never stored has none.
    expect(await metricValuesForStudy(studyId, "m", "absent", db)).toEqual({ metric: "m", signature: "absent", values: new Map(), details: new Map() });
    expect(await metricValuesForStudy(studyId, "never", undefined, db)).toBeNull();
  });

  test("a score never outlives its review: deleting the review deletes its scores, and a score of no review is refused", async () => {
    const studyId = await createSmallStudy("scores-follow-reviews", 1);
    const { run } = await startMetricRun(createJobContext(), boss, studyId, { metrics: ["rouge-l"] });
    const [a, b] = await db.review.findMany({ where: { codeChange: { studyId }, isReference: false }, orderBy: { position: "asc" } });
    const row = (reviewId: string) => ({ reviewId, metric: "rouge-l", signature: "test", value: 0.5 });
    await storeChunkScores(run.id, [row(a.id), row(b.id)], 2);
    await db.review.delete({ where: { id: a.id } });
    expect((await db.metricScore.findMany({ where: { signature: "test", reviewId: { in: [a.id, b.id] } } })).map((s) => s.reviewId)).toEqual([b.id]);
    await expect(storeChunkScores(run.id, [row(a.id)], 1)).rejects.toThrow(`a metric score names review ${a.id}, which does not exist`);
  });

  test("a system's reviews read without the human reference: the same reviews, texts and pseudo-references, the reference left null", async () => {
    const studyId = await createSmallStudy("reviews-without-reference", 3);
    const ids = (await db.review.findMany({ where: { codeChange: { studyId }, system: "sys-a" }, select: { id: true } })).map((r) => r.id);
    const withReference = await loadReviewsToScore(ids, { codeChanges: false });
    const without = await loadReviewsToScore(ids, { codeChanges: false, reference: false });
    expect(withReference.map((r) => r.reference)).toEqual(ids.map(() => expect.stringMatching(/^Why is x incremented here\?/)));
    const byId = (reviews: typeof without) => [...reviews].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(without)).toEqual(byId(withReference).map((r) => ({ ...r, reference: null })));
    expect(without.every((r) => r.pseudoReferences.length === 2)).toBe(true);
  });

  test("unknown metrics are rejected with the list of names", async () => {
    const studyId = await createSmallStudy("unknown-metric", 1);
    await expect(startMetricRun(createJobContext(), boss, studyId, { metrics: ["bleu", "rouge-l"] })).rejects.toThrow(/unknown metric "bleu"; available: bleu-codereviewer/);
  });
});
