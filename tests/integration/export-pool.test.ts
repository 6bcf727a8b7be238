/**
 * An export must not starve saves: on a web process's pool of two connections, an export
 * of a study of several pages holds at most one connection at a time, and an annotator's save made
 * while the export runs is answered before the export ends. A real PostgreSQL, the real pool, the
 * real export and save paths; the pool's own acquire and release events count the connections held.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import type { SaveRequest } from "@/lib/annotation/values";
import { runImport } from "@/lib/data/imports";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";
import { imported, jsonlFile } from "./import-fixtures";

const url = inject("databaseUrl");
process.env.DATABASE_URL = url;
const setup = createClient(url);
// The data layer's `db`: a pool of two connections, given up after 5 s of waiting for one (the default wait).
process.env.CRJUDGE_DB_POOL_SIZE = "2";
const { db } = await import("@/lib/db/client");
// The integration files share one process: a pool an earlier file made is replaced by one with these settings.
await db.$disconnect();
const { processConnection } = await import("@/lib/db/connection");
const { exportStream, streamExport } = await import("@/lib/data/exports");
const { saveAnnotation } = await import("@/lib/data/annotations");
const { generateAssignments } = await import("@/lib/data/assignment-admin");

const STUDY = "export-pool";
/** Four pages of the export's reader (500 code changes a page). */
const CHANGES = 1600;
let studyId = "";
let fx: AnnotationFixture;
let save: SaveRequest;

beforeAll(async () => {
  const file = jsonlFile("big.jsonl", Array.from({ length: CHANGES }, (_, k) => `big-${k}`));
  studyId = imported(await runImport({ study: STUDY, format: "jsonl", files: [file] }, setup)).study.id;
  fx = await createAnnotationFixture(setup, `pool${Date.now()}`);
  await generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2]);
  const claim = await setup.assignment.findFirstOrThrow({ where: { annotatorId: fx.accounts.ann1, task: "CLAIM_VERIFICATION" }, orderBy: { position: "asc" } });
  const change = fx.changes.find((c) => c.id === claim.codeChangeId)!;
  // Two graders, so the GradedReviews workbook's Grade columns hold the consensus.
  for (const annotatorId of [fx.accounts.ann1, fx.accounts.ann2]) await setup.referenceGrade.create({ data: { annotatorId, reviewId: fx.changes[0].reviews[0], grade: 4 } });
  save = { kind: "judgement", assignmentId: claim.id, targetId: change.claims[0], baseVersion: 0, value: { code: "CORRECT", necessary: null, errorType: null, note: "" } };
});
afterAll(async () => {
  await removeAnnotationFixture(setup, fx);
  await setup.study.deleteMany({ where: { slug: STUDY } });
  await Promise.all([setup.$disconnect(), db.$disconnect()]);
  delete process.env.CRJUDGE_DB_POOL_SIZE;
});

/** The most connections of the process's pool checked out at once while `run` runs. */
async function mostHeld(run: () => Promise<void>): Promise<number> {
  const pool = processConnection().pool;
  let held = 0;
  let most = 0;
  const acquired = () => (most = Math.max(most, ++held));
  const released = () => held--;
  pool.on("acquire", acquired);
  pool.on("release", released);
  try {
    await run();
  } finally {
    pool.off("acquire", acquired);
    pool.off("release", released);
  }
  return most;
}

test("an export holds one connection of two at a time, and a save made meanwhile is answered before the export ends", async () => {
  // Both connections open, so that statements sent together would each get one at once.
  await Promise.all([db.$queryRaw`SELECT 1 FROM pg_sleep(0.05)`, db.$queryRaw`SELECT 1 FROM pg_sleep(0.05)`]);
  expect(processConnection().pool.totalCount).toBe(2);

  let lines = 0;
  const held = await mostHeld(async () => {
    for await (const chunk of streamExport({ studyId, format: "jsonl" }, db)) lines += String(chunk).split("\n").length - 1;
  });
  expect(lines).toBe(CHANGES);
  expect(held).toBe(1);
  // The GradedReviews workbook reads the consensus of the grades (taskConsensus) on the same one connection.
  let bytes = 0;
  const heldByWorkbook = await mostHeld(async () => {
    for await (const chunk of streamExport({ studyId: fx.studyId, format: "gradedreviews" }, db)) bytes += chunk.length;
  });
  expect(bytes).toBeGreaterThan(0);
  expect(heldByWorkbook).toBe(1);

  const events: string[] = [];
  const exporting = (async () => {
    let saving: Promise<void> | undefined;
    for await (const chunk of streamExport({ studyId, format: "jsonl" }, db)) {
      saving ??= saveAnnotation(asAccount(fx.accounts.ann1), save).then((answer) => {
        expect(answer).toMatchObject({ version: 1, changed: true });
        events.push("saved");
      });
      void chunk;
    }
    events.push("exported");
    await saving;
  })();
  await exporting;
  expect(events).toEqual(["saved", "exported"]);
});

test("a download closed after its first bytes gives its connection back once the page read ahead has answered, and the pool goes on answering", async () => {
  const pool = processConnection().pool;
  const reader = exportStream({ studyId, format: "jsonl" }, db).getReader();
  const first = await reader.read();
  expect(first.done).toBe(false);
  // What a route's Response does when the client goes away.
  await reader.cancel();
  const deadline = Date.now() + 5000;
  while (pool.idleCount < pool.totalCount && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(pool.totalCount - pool.idleCount).toBe(0);
  expect(await db.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
});
