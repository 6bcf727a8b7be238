/** Data access for automatic metric scores (MetricScore: review × metric × signature → value). */
import "server-only";
import { intArrayLiteral, textArrayLiteral } from "@/lib/db/array-literal";
import { db, Prisma, rawRows, type PrismaClient } from "@/lib/db/client";

type Client = Pick<PrismaClient, "metricScore" | "$queryRaw">;

/** One score to store; `value` null when the metric is undefined for the review, with the reason in `detail`. */
export interface MetricScoreInput {
  reviewId: string;
  metric: string;
  signature: string;
  value: number | null;
  detail?: Prisma.InputJsonValue;
}

/**
 * What an INSERT does with a (review, metric, signature) already stored: keep the stored row,
 * replace it, or fail. "fail" is a plain INSERT, for rows the caller found missing just before:
 * PostgreSQL then skips ON CONFLICT's speculative insertion (a probe of the unique index and a
 * second WAL record per row), which made a chunk's store about 40 % cheaper (scripts/bench/jobs.ts).
 */
export type OnStoredScore = "keep" | "replace" | "fail";

/** Distinct values in first-seen order, each named by its index in `list` (from 0, as jsonb's `->` counts), so each is sent once. */
function indexing<K>(): { list: K[]; index: (key: K) => number } {
  const list: K[] = [];
  const indexes = new Map<K, number>();
  return {
    list,
    index(key) {
      let i = indexes.get(key);
      if (i === undefined) indexes.set(key, (i = list.push(key) - 1));
      return i;
    },
  };
}

/**
 * The INSERT of `rows` into MetricScore, as one statement (a data-modifying CTE can carry it);
 * a (review, metric, signature) already stored is kept, replaced or fails (`stored`). The rows
 * travel as arrays: each row's review id, value, and the numbers of its column (metric and
 * signature) and detail, each of which is sent once: a signature is a few hundred characters
 * that every row of a column repeated, and a detail is shared by a review's columns (CRScore's
 * three). The details go as one JSON array, which needs no escaping inside an array literal.
 * The columns and details are read once, in a materialized CTE (parsed once whatever the plan),
 * and each row picks its own by subscript, so PostgreSQL neither joins nor sorts: joined to the
 * rows by number, they cost it about 1.5 ms more of the 38 ms a chunk of 3,000 CRScore rows
 * takes (paired runs on the analysis bench's study). Values travel
 * as text that PostgreSQL parses: Prisma 6.19's query compiler rounds Float parameters to 16
 * significant digits (0.11764705882352941 would be stored as 0.1176470588235294), and a
 * number's shortest text reads back as the same float8. The rows' arrays go as literals
 * (lib/db/array-literal.ts). Rows go in in the order given. Most of an insert is the foreign
 * key's check of each row and the unique index.
 */
export function metricScoresInsert(rows: readonly MetricScoreInput[], stored: OnStoredScore = "keep"): Prisma.Sql {
  const conflict = {
    keep: Prisma.sql`ON CONFLICT ("candidateReviewId", metric, "paramsKey") DO NOTHING`,
    replace: Prisma.sql`ON CONFLICT ("candidateReviewId", metric, "paramsKey") DO UPDATE SET value = EXCLUDED.value, detail = EXCLUDED.detail, "computedAt" = now()`,
    fail: Prisma.empty,
  }[stored];
  for (const r of rows) if (r.value !== null && !Number.isFinite(r.value)) throw new RangeError(`score ${r.metric} of review ${r.reviewId} is not a finite number: ${r.value}`);
  const details = indexing<unknown>();
  // Columns by metric, then signature: a key joining the two would be made anew for every row.
  const columns = new Map<string, Map<string, number>>();
  const metrics: string[] = [];
  const signatures: string[] = [];
  const columnNumber = (metric: string, signature: string) => {
    let ofMetric = columns.get(metric);
    if (!ofMetric) columns.set(metric, (ofMetric = new Map()));
    let n = ofMetric.get(signature);
    if (n === undefined) {
      ofMetric.set(signature, (n = metrics.push(metric)));
      signatures.push(signature);
    }
    return n;
  };
  const columnNumbers = rows.map((r) => columnNumber(r.metric, r.signature));
  const detailIndexes = rows.map((r) => (r.detail === undefined ? null : details.index(r.detail)));
  const values = rows.map((r) => (r.value === null ? null : String(r.value)));
  return Prisma.sql`
    WITH shared AS MATERIALIZED (
      SELECT ${metrics}::text[] AS metrics, ${signatures}::text[] AS signatures, ${`[${details.list.map((d) => JSON.stringify(d)).join(",")}]`}::jsonb AS details)
    INSERT INTO "MetricScore" ("candidateReviewId", metric, "paramsKey", value, detail)
    SELECT r.review, shared.metrics[r.col], shared.signatures[r.col], r.value::float8, shared.details -> r.detail
    FROM shared, unnest(${textArrayLiteral(rows.map((r) => r.reviewId))}::text[], ${intArrayLiteral(columnNumbers)}::int[], ${textArrayLiteral(values)}::text[], ${intArrayLiteral(detailIndexes)}::int[]) AS r(review, col, value, detail)
    ${conflict}`;
}

/** Stores scores (metricScoresInsert) in statements of 5,000 rows. Returns how many rows were written. */
export async function insertMetricScores(rows: readonly MetricScoreInput[], options: { replace?: boolean } = {}, client: Pick<PrismaClient, "$executeRaw"> = db): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 5000) written += await client.$executeRaw(metricScoresInsert(rows.slice(start, start + 5000), options.replace ? "replace" : "keep"));
  return written;
}

/** The (review, metric, signature) keys already stored among `reviewIds` for the given metric columns. */
export async function storedScoreKeys(reviewIds: readonly string[], columns: readonly { metric: string; signature: string }[], client: PrismaClient = db): Promise<Set<string>> {
  const rows = await rawRows<{ reviewId: string; metric: string; signature: string }>(client, Prisma.sql`
    SELECT "candidateReviewId" AS "reviewId", metric, "paramsKey" AS signature FROM "MetricScore"
    WHERE "candidateReviewId" = ANY(${[...reviewIds]}::text[])
      AND (metric, "paramsKey") IN (SELECT * FROM unnest(${columns.map((c) => c.metric)}::text[], ${columns.map((c) => c.signature)}::text[]))`);
  return new Set(rows.map((r) => scoreKey(r.reviewId, r.metric, r.signature)));
}

/** The rows whose (review, metric, signature) is not stored. */
export async function unstoredScores(rows: readonly MetricScoreInput[], client: PrismaClient = db): Promise<MetricScoreInput[]> {
  const columns = new Map(rows.map((r) => [`${r.metric}\u0000${r.signature}`, { metric: r.metric, signature: r.signature }]));
  const stored = await storedScoreKeys([...new Set(rows.map((r) => r.reviewId))], [...columns.values()], client);
  return rows.filter((r) => !stored.has(scoreKey(r.reviewId, r.metric, r.signature)));
}

export function scoreKey(reviewId: string, metric: string, signature: string): string {
  return `${reviewId}\u0000${metric}\u0000${signature}`;
}

export interface StudyMetricVariant {
  metric: string;
  signature: string;
  /** Reviews with a stored row (defined or not). */
  count: number;
  /** Reviews with a defined value. */
  defined: number;
  lastComputedAt: Date;
}

/** Every metric × signature stored for the study's reviews, newest first within a metric. */
export async function listStudyMetrics(studyId: string, client: Client = db): Promise<StudyMetricVariant[]> {
  const rows = await client.$queryRaw<{ metric: string; signature: string; count: bigint; defined: bigint; last: Date }[]>`
    SELECT s.metric, s."paramsKey" AS signature, count(*) AS count, count(s.value) AS defined, max(s."computedAt") AS last
    FROM "MetricScore" s
    JOIN "CandidateReview" r ON r.id = s."candidateReviewId"
    JOIN "CodeChange" c ON c.id = r."codeChangeId"
    WHERE c."studyId" = ${studyId}
    GROUP BY s.metric, s."paramsKey"
    ORDER BY s.metric, max(s."computedAt") DESC`;
  return rows.map((r) => ({ metric: r.metric, signature: r.signature, count: Number(r.count), defined: Number(r.defined), lastComputedAt: r.last }));
}

export interface MetricValues {
  metric: string;
  signature: string;
  /** Review id → value, for reviews with a defined value. */
  values: Map<string, number>;
  /** Review id → stored detail (CRScore keeps its best matches there for threshold sweeps). */
  details: Map<string, Prisma.JsonValue>;
}

/**
 * Which part of the stored details metricValuesForStudy reads: none, all of each, or CRScore's
 * best matches alone (`tau`, `reviewSentenceBest`, `pseudoReferenceBest`: what its threshold
 * sweep and τ_GT read), which PostgreSQL sends as one text of JSON arrays rather than the JSON
 * objects: for 25,000 reviews a tenth less of its CPU (107 against 121 ms); parsing them here
 * costs the same.
 */
export type DetailsRead = boolean | "bestMatches";

/** The details' aggregate: JSON objects (`true`), or [tau, reviewSentenceBest, pseudoReferenceBest] arrays in one text, a missing field null. */
function detailsAggregate(details: DetailsRead, defined: Prisma.Sql): Prisma.Sql {
  if (details === false) return Prisma.sql`NULL`;
  if (details === true) return Prisma.sql`json_agg(s.detail) ${defined}`;
  const field = (key: string) => Prisma.sql`coalesce((s.detail -> ${key})::text, 'null')`;
  return Prisma.sql`string_agg('[' || ${field("tau")} || ',' || ${field("reviewSentenceBest")} || ',' || ${field("pseudoReferenceBest")} || ']', ',') ${defined}`;
}

/** The details as read (detailsAggregate), in the ids' order; a stored null detail is undefined. */
function parsedDetails(read: Prisma.JsonValue[] | string | null): (Prisma.JsonValue | undefined)[] {
  if (read === null) return [];
  if (typeof read !== "string") return read.map((d) => d ?? undefined);
  const triples = JSON.parse(`[${read}]`) as [Prisma.JsonValue, Prisma.JsonValue, Prisma.JsonValue][];
  return triples.map(([tau, reviewSentenceBest, pseudoReferenceBest]) => ({ tau, reviewSentenceBest, pseudoReferenceBest }));
}

/**
 * The defined values of one metric for the study's reviews. Without `signature`, the variant
 * computed most recently (listStudyMetrics order); null when the metric has no stored scores.
 * One statement, its rows as JSON arrays in one row per variant (as gatherTaskColumns reads),
 * the newest kept; the details only when asked (CRScore's threshold sweep reads them; they are
 * most of the bytes). Grouping by variant reads the rows once: picking the variant first in a
 * CTE read twice made PostgreSQL write the rows with their details to a temporary file (12 MB
 * for 25,000 CRScore details, about a fifth of the statement's time). The price: every stored
 * variant is aggregated, not only the newest (with two CRScore variants of 25,000 reviews,
 * about 190-240 ms against the CTE's 170-190 ms; with one, 100-107 ms against 115-135 ms).
 */
export async function metricValuesForStudy(studyId: string, metric: string, signature: string | undefined, client: PrismaClient = db, { details = true }: { details?: DetailsRead } = {}): Promise<MetricValues | null> {
  const defined = Prisma.sql`FILTER (WHERE s.value IS NOT NULL)`;
  const [row] = await rawRows<{ key: string; ids: string[] | null; values: number[] | null; details: Prisma.JsonValue[] | string | null }>(client, Prisma.sql`
    SELECT s."paramsKey" AS key, json_agg(s."candidateReviewId") ${defined} AS ids, json_agg(s.value) ${defined} AS values, ${detailsAggregate(details, defined)} AS details
    FROM "MetricScore" s JOIN "CandidateReview" r ON r.id = s."candidateReviewId" JOIN "CodeChange" c ON c.id = r."codeChangeId"
    WHERE c."studyId" = ${studyId} AND s.metric = ${metric} ${signature === undefined ? Prisma.empty : Prisma.sql`AND s."paramsKey" = ${signature}`}
    GROUP BY s."paramsKey" ORDER BY max(s."computedAt") DESC LIMIT 1`);
  const key = signature ?? row?.key;
  if (key === undefined) return null;
  const values = new Map<string, number>();
  const detailsOf = new Map<string, Prisma.JsonValue>();
  const detailOf = parsedDetails(row?.details ?? null);
  (row?.ids ?? []).forEach((id, i) => {
    values.set(id, (row.values as number[])[i]);
    const detail = detailOf[i];
    if (detail !== undefined) detailsOf.set(id, detail);
  });
  return { metric, signature: key, values, details: detailsOf };
}

/** The study's reviews with their external ids and their code change's, by which a score file may name them. */
export function studyReviewKeys(studyId: string): Promise<{ id: string; externalId: string; codeChange: { externalId: string } }[]> {
  return db.review.findMany({ where: { codeChange: { studyId } }, select: { id: true, externalId: true, codeChange: { select: { externalId: true } } } });
}

/** An imported score file's scores, in one transaction (insertMetricScores); returns the rows written. */
export function storeImportedScores(rows: readonly MetricScoreInput[], options: { replace?: boolean }): Promise<number> {
  return db.$transaction((tx) => insertMetricScores(rows, options, tx), { timeout: 120_000 });
}
