/**
 * What storing one metric's scores costs PostgreSQL at the least: 5,164 rows
 * shaped like MetricScore, inserted in statements of 1,000 as a metric job's chunks store them,
 * into tables that differ only in key, indexes, collation and foreign key, so each part's cost
 * shows, by INSERT … SELECT (as the jobs) and by COPY (text, as the imports).
 * Means of the CPU time of the PostgreSQL backend that runs the statements (from /proc) and
 * medians of the wall time.
 */
import pg from "pg";
import { createClient } from "@/lib/db/client";
import { createTestDatabase } from "@/lib/db/test-database";
import { copyRows } from "@/lib/data/import-writer";
import { createStudy } from "./jobs";
import { makePairs, PAIRS } from "./metrics";
import { backendCpuMs } from "./support/postgres-cpu";
import { median } from "./support/timing";

const RUNS = 9;
const FK = `REFERENCES "CandidateReview"(id) ON DELETE CASCADE`;
/** The reviews' ids again, under COLLATE "C": byte comparisons instead of the database's collation (strcoll) in the key and the foreign key's lookups. */
const FK_C = `REFERENCES floor_reviews(id) ON DELETE CASCADE`;
const C = `COLLATE "C"`;
/** MetricScore's shape with its key as primary key, the review id referencing `reference` if given. */
const keyed = (reference?: string) =>
  `"candidateReviewId" text NOT NULL${reference ? ` ${reference}` : ""}, metric text NOT NULL, "paramsKey" text NOT NULL, value float8, detail jsonb, "computedAt" timestamp(3) NOT NULL DEFAULT now(), PRIMARY KEY ("candidateReviewId", metric, "paramsKey")`;
const SHAPES: { name: string; id: boolean; table: string; index?: string; trigger?: string }[] = [
  { name: "cuid id, unique key, (metric, signature) index, FK (MetricScore until 2026-11-27)", id: true, table: `id text PRIMARY KEY, "candidateReviewId" text NOT NULL ${FK}, metric text NOT NULL, "paramsKey" text NOT NULL, value float8, detail jsonb, "computedAt" timestamp(3) NOT NULL DEFAULT now(), UNIQUE ("candidateReviewId", metric, "paramsKey")`, index: `(metric, "paramsKey")` },
  { name: "key as primary key, FK (MetricScore until 2026-11-30)", id: false, table: keyed(FK) },
  { name: "key and review ids COLLATE \"C\", key as primary key, FK", id: false, table: `"candidateReviewId" text ${C} NOT NULL ${FK_C}, metric text ${C} NOT NULL, "paramsKey" text ${C} NOT NULL, value float8, detail jsonb, "computedAt" timestamp(3) NOT NULL DEFAULT now(), PRIMARY KEY ("candidateReviewId", metric, "paramsKey")` },
  {
    name: "key as primary key, reviews checked once per statement (MetricScore now)",
    id: false,
    table: keyed(),
    trigger: `CREATE TRIGGER floor_reviews_exist AFTER INSERT ON floor_scores REFERENCING NEW TABLE AS new_scores FOR EACH STATEMENT EXECUTE FUNCTION "MetricScore_reviews_exist"()`,
  },
  { name: "key as primary key, no FK", id: false, table: keyed() },
  { name: "heap only: no key, no FK", id: false, table: `"candidateReviewId" text NOT NULL, metric text NOT NULL, "paramsKey" text NOT NULL, value float8, detail jsonb, "computedAt" timestamp(3) NOT NULL DEFAULT now()` },
];

interface Score {
  reviewId: string;
  metric: string;
  signature: string;
  value: number;
}


export default async function run(): Promise<void> {
  const database = await createTestDatabase("crjudge_bench_score_floor");
  const client = createClient(database.url);
  const connection = new pg.Client(database.url);
  await connection.connect();
  try {
    await createStudy(client, "floor", makePairs(PAIRS));
    const [{ pid }] = (await connection.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`)).rows;
    const ids = (await connection.query<{ id: string }>(`SELECT id FROM "CandidateReview" WHERE NOT "isReference" ORDER BY id`)).rows.map((r) => r.id);
    const signature = "nrefs:1|case:mixed|eff:no|tok:gradedreviews|smooth:add-1|version:1";
    await connection.query(`CREATE TABLE floor_reviews (id text ${C} PRIMARY KEY)`);
    await connection.query(`INSERT INTO floor_reviews SELECT id FROM "CandidateReview"`);
    await connection.query(`VACUUM ANALYZE`);
    const scores: Score[] = ids.map((id, i) => ({ reviewId: id, metric: "bleu-gradedreviews", signature, value: (i % 997) / 997 }));
    for (const shape of SHAPES) {
      await connection.query(`DROP TABLE IF EXISTS floor_scores`);
      await connection.query(`CREATE TABLE floor_scores (${shape.table})`);
      if (shape.index) await connection.query(`CREATE INDEX ON floor_scores ${shape.index}`);
      if (shape.trigger) await connection.query(shape.trigger);
      const [id, newId] = shape.id ? ["id, ", "gen_random_uuid()::text, "] : ["", ""];
      const methods: [string, (chunk: Score[]) => Promise<unknown>][] = [
        ["json_to_recordset", (chunk) => connection.query(`INSERT INTO floor_scores (${id}"candidateReviewId", metric, "paramsKey", value) SELECT ${newId}r.* FROM json_to_recordset($1::json) AS r("reviewId" text, metric text, signature text, value float8)`, [JSON.stringify(chunk)])],
        ["unnest of arrays (as the jobs)", (chunk) => connection.query(`INSERT INTO floor_scores (${id}"candidateReviewId", metric, "paramsKey", value) SELECT ${newId}u.* FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[]) AS u`, [chunk.map((s) => s.reviewId), chunk.map((s) => s.metric), chunk.map((s) => s.signature), chunk.map((s) => s.value)])],
        ...(shape.id ? [] : [["COPY text", (chunk: Score[]) => copyRows(connection, { name: "floor_scores", columns: { reviewId: "text", metric: "text", signature: "text", value: "text" }, mapped: { reviewId: "candidateReviewId", signature: "paramsKey" } }, chunk)] as [string, (chunk: Score[]) => Promise<unknown>]]),
      ];
      for (const [method, insert] of methods) {
        const wall: number[] = [];
        let cpu = 0;
        for (let i = 0; i < RUNS; i++) {
          await connection.query(`TRUNCATE floor_scores`);
          const pg0 = backendCpuMs(pid) ?? 0;
          const t0 = performance.now();
          for (let start = 0; start < scores.length; start += 1000) await insert(scores.slice(start, start + 1000));
          wall.push(performance.now() - t0);
          cpu += (backendCpuMs(pid) ?? 0) - pg0;
        }
        console.log(`${shape.name}, ${method}: PostgreSQL ${(cpu / RUNS).toFixed(0)} ms CPU (mean of ${RUNS}, ${((cpu / RUNS / scores.length) * 1000).toFixed(1)} µs per row), ${median(wall).toFixed(1)} ms wall (median)`);
      }
    }
  } finally {
    await connection.end();
    await client.$disconnect();
    await database.drop();
  }
}
