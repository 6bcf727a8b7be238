/**
 * A metric score's reference to its review, kept by triggers checked once per statement
 * (migration metric_score_review_check): what the foreign key guaranteed, against a real server,
 * including a review deleted while its score is being stored.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { insertMetricScores } from "@/lib/data/metric-scores";
import { createClient, type PrismaClient } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { scratchDatabase } from "./scratch-database";

// A database of its own: one test truncates the reviews.
let database: Awaited<ReturnType<typeof scratchDatabase>>;
let db: PrismaClient;
const connections: pg.Client[] = [];

beforeAll(async () => {
  database = await scratchDatabase("crjudge_score_reference");
  await migrate(database.url);
  db = createClient(database.url);
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.end()));
  await db.$disconnect();
  await database.drop();
});

async function connection(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  connections.push(client);
  return client;
}

/** A study with one code change and `n` reviews; their ids. */
async function reviews(slug: string, n: number): Promise<string[]> {
  const study = await db.study.create({ data: { slug, name: slug, tasks: ["REVIEW_RATING"] } });
  const change = await db.codeChange.create({
    data: { studyId: study.id, externalId: "c", language: "java", diff: "", reviews: { create: Array.from({ length: n }, (_, i) => ({ externalId: `r${i}`, system: "s", text: `review ${i}`, position: i })) } },
    include: { reviews: { orderBy: { position: "asc" } } },
  });
  return change.reviews.map((r) => r.id);
}

const score = (reviewId: string, metric = "bleu") => ({ reviewId, metric, signature: "sig", value: 0.5 });
const stored = async (ids: string[]) => db.metricScore.count({ where: { reviewId: { in: ids } } });
const insertSql = `INSERT INTO "MetricScore" ("candidateReviewId", metric, "paramsKey", value) VALUES ($1, 'bleu', 'sig', 0.5)`;

describe("a metric score's review", () => {
  test("a statement naming a review that does not exist fails whole, with foreign_key_violation and the review named", async () => {
    const [a, b] = await reviews("missing-review", 2);
    await expect(insertMetricScores([score(a), score("no-such-review"), score(b)], {}, db)).rejects.toThrow(/a metric score names review no-such-review, which does not exist/);
    expect(await stored([a, b])).toBe(0);
    const client = await connection();
    await expect(client.query(insertSql, ["no-such-review"])).rejects.toMatchObject({ code: "23503", table: "MetricScore", column: "candidateReviewId" });
    // Moving a stored score to a review that does not exist fails the same way.
    await insertMetricScores([score(a)], {}, db);
    await expect(client.query(`UPDATE "MetricScore" SET "candidateReviewId" = 'gone' WHERE "candidateReviewId" = $1`, [a])).rejects.toMatchObject({ code: "23503" });
    expect(await stored([a])).toBe(1);
  });

  test("a review's scores go with it: deleted with the review, its code change or its study, and moved with its id", async () => {
    const [a, b, c] = await reviews("cascade", 3);
    await insertMetricScores([a, b, c].flatMap((id) => [score(id, "bleu"), score(id, "chrf")]), {}, db);
    await db.review.delete({ where: { id: a } });
    expect(await stored([a, b, c])).toBe(4);
    await db.$executeRaw`UPDATE "CandidateReview" SET id = ${`${b}-renamed`} WHERE id = ${b}`;
    expect(await stored([b])).toBe(0);
    expect(await stored([`${b}-renamed`])).toBe(2);
    await db.study.delete({ where: { slug: "cascade" } });
    expect(await stored([`${b}-renamed`, c])).toBe(0);
  });

  test("truncating the reviews truncates the scores", async () => {
    const [a] = await reviews("truncate", 1);
    await insertMetricScores([score(a)], {}, db);
    await db.$executeRawUnsafe(`TRUNCATE "CandidateReview" CASCADE`);
    expect(await db.metricScore.count()).toBe(0);
  });

  test("a review whose score is being stored cannot be deleted until the store commits, and then takes the score with it", async () => {
    const [a] = await reviews("store-then-delete", 1);
    const [storer, deleter] = [await connection(), await connection()];
    await storer.query("BEGIN");
    await storer.query(insertSql, [a]);
    await deleter.query("SET lock_timeout = '300ms'");
    await expect(deleter.query(`DELETE FROM "CandidateReview" WHERE id = $1`, [a])).rejects.toMatchObject({ code: "55P03" });
    await storer.query("COMMIT");
    expect(await stored([a])).toBe(1);
    await deleter.query(`DELETE FROM "CandidateReview" WHERE id = $1`, [a]);
    expect(await stored([a])).toBe(0);
  });

  test("a score of a review being deleted waits for the delete, and fails once it commits; stores once it rolls back", async () => {
    const [a, b] = await reviews("delete-then-store", 2);
    const [storer, deleter] = [await connection(), await connection()];
    for (const [id, end] of [[a, "COMMIT"], [b, "ROLLBACK"]] as const) {
      await deleter.query("BEGIN");
      await deleter.query(`DELETE FROM "CandidateReview" WHERE id = $1`, [id]);
      let settled = false;
      const store = storer.query(insertSql, [id]).finally(() => (settled = true));
      store.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
      await deleter.query(end);
      if (end === "COMMIT") await expect(store).rejects.toMatchObject({ code: "23503" });
      else await store;
    }
    expect(await stored([a, b])).toBe(1);
  });
});
