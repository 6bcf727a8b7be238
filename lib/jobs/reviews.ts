/** The texts a metric needs for each review: its own, the change's human reference and pseudo-references. */
import { db, type PrismaClient, type Sql, sql } from "@/lib/db/client";

/** Pseudo-references generated without humans (CRScore §3.1). */
const AUTOMATIC_KINDS = ["CLAIM", "IMPLICATION", "SMELL"];

export interface ReviewToScore {
  id: string;
  text: string;
  isReference: boolean;
  /** The change's human reference review (the first by position), null when it has none. */
  reference: string | null;
  /** Non-empty automatic pseudo-references of the change (claims, implications, smells), by position. */
  pseudoReferences: string[];
  /** The code change for the LLM judges: its diff, else the new file (GradedReviews imports have no diff); null when both are empty or not loaded. */
  codeChange: string | null;
  language: string;
}

/** Which reviews: a chunk's ids, or a whole study (its reviews that have a text). */
export type ReviewScope = { ids: readonly string[] } | { studyId: string };

type Client = Pick<PrismaClient, "$queryRaw">;

/** A metric column: the metric's name and its signature. */
export interface ScoreColumn {
  metric: string;
  paramsKey: string;
}

interface ReviewRow {
  id: string;
  text: string;
  isReference: boolean;
  diff: string | null;
  newFile: string | null;
  language: string | null;
  reference: string | null;
  pseudo: string[] | null;
  stored: number[];
}

/**
 * Loads the reviews of `scope` with their change's texts, and which of `options.stored` columns
 * each has stored already, in one SQL statement whatever their number (the metric jobs' hot
 * path: Prisma's relation queries cost about 100 µs per review).
 * `codeChanges: false` leaves out the diffs and files, which only the LLM judges read
 * (codeChange is then null); `pseudoReferences: false` leaves out the pseudo-references, which
 * only CRScore reads (an empty list then), so reference metrics read one subquery per change.
 */
export async function loadReviewsToScore(
  scope: ReviewScope,
  query: Sql = sql,
  options: { codeChanges?: boolean; pseudoReferences?: boolean; stored?: readonly ScoreColumn[] } = {},
): Promise<(ReviewToScore & { stored: ScoreColumn[] })[]> {
  const byIds = "ids" in scope;
  const columns = options.stored ?? [];
  const rows = await query<ReviewRow>(
    {
      name: byIds ? "reviews-to-score-by-ids" : "reviews-to-score-of-study",
      text: `
      WITH r AS (${
        byIds
          ? `SELECT id, text, "isReference", "codeChangeId" FROM "CandidateReview" WHERE id = ANY($1::text[])`
          : `SELECT id, text, "isReference", "codeChangeId" FROM "CandidateReview" WHERE NOT "textMissing" AND "codeChangeId" IN (SELECT id FROM "CodeChange" WHERE "studyId" = $1)`
      }),
      c AS (
        SELECT c.id, CASE WHEN $2 THEN c.diff ELSE '' END AS diff, CASE WHEN $2 THEN c."newFile" ELSE '' END AS "newFile", c.language,
          (SELECT x.text FROM "CandidateReview" x WHERE x."codeChangeId" = c.id AND x."isReference" AND NOT x."textMissing" ORDER BY x.position, x.id LIMIT 1) AS reference,
          CASE WHEN $3 THEN ARRAY(SELECT p.text FROM "PseudoReference" p WHERE p."codeChangeId" = c.id AND p.kind::text = ANY($4::text[]) ORDER BY p.position, p.id) ELSE '{}'::text[] END AS pseudo
        FROM "CodeChange" c WHERE c.id = ANY(ARRAY(SELECT DISTINCT "codeChangeId" FROM r))
      )
      SELECT r.id, r.text, r."isReference", c.diff, c."newFile", c.language, c.reference, c.pseudo,
        ARRAY(SELECT u.i::int - 1 FROM unnest($5::text[], $6::text[]) WITH ORDINALITY AS u(metric, "paramsKey", i)
          WHERE EXISTS (SELECT 1 FROM "MetricScore" s WHERE s."candidateReviewId" = r.id AND s.metric = u.metric AND s."paramsKey" = u."paramsKey")) AS stored
      FROM r LEFT JOIN c ON c.id = r."codeChangeId"`,
    },
    [byIds ? [...scope.ids] : scope.studyId, options.codeChanges ?? true, options.pseudoReferences ?? true, AUTOMATIC_KINDS, columns.map((c) => c.metric), columns.map((c) => c.paramsKey)],
  );
  return rows.map((r) => ({
    id: r.id,
    text: r.text,
    isReference: r.isReference,
    reference: r.reference,
    pseudoReferences: (r.pseudo ?? []).filter((text) => text.trim() !== ""),
    codeChange: r.diff?.trim() ? r.diff : r.newFile?.trim() ? r.newFile : null,
    language: r.language ?? "",
    stored: r.stored.map((i) => columns[i]),
  }));
}

/** Every review and pseudo-reference text of a study: the corpus the offline TF-IDF embedder is fitted on. */
export async function studyCorpus(studyId: string, client: PrismaClient = db): Promise<string[]> {
  const [reviews, pseudoReferences] = await Promise.all([
    client.candidateReview.findMany({ where: { codeChange: { studyId } }, select: { text: true } }),
    client.pseudoReference.findMany({ where: { codeChange: { studyId } }, select: { text: true } }),
  ]);
  return [...reviews, ...pseudoReferences].map((r) => r.text);
}

/**
 * The study's reviews in study order (change position, review position), with the reference
 * flag; reviews imported without their text (CandidateReview.textMissing) are not scored.
 */
export async function studyReviewOrder(studyId: string, client: Client = db): Promise<{ id: string; isReference: boolean }[]> {
  return client.$queryRaw<{ id: string; isReference: boolean }[]>`
    SELECT r.id, r."isReference" FROM "CandidateReview" r JOIN "CodeChange" c ON c.id = r."codeChangeId"
    WHERE c."studyId" = ${studyId} AND NOT r."textMissing"
    ORDER BY c.position, c.id, r.position, r.id`;
}
