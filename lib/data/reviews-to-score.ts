/** What metric runs read of reviews (lib/metric-runs): the texts a metric needs, the reviews τ is calibrated on and SWE-Judge's human scores. */
import "server-only";
import { textArrayLiteral } from "@/lib/db/array-literal";
import { db, Prisma, rawRows, type PrismaClient } from "@/lib/db/client";

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

/**
 * Loads the reviews `ids` with their change's texts in one SQL statement whatever their number,
 * sent through pg (the metric jobs' hot path: Prisma's relation queries cost about 100 µs per
 * review, and its raw queries still pay its query compiler). The reviews of their changes are
 * read once by index, and each change's human reference taken from them by a window over the
 * change (the first reference by position), instead of a subquery per change or a join the
 * planner cannot size (which scanned the whole tables of a 100,000-review study for every
 * chunk). Their changes too are looked up by an array of their ids: as a join (`IN (SELECT
 * ...)`) the planner, which cannot size the CTE, read the whole CodeChange table for every chunk
 * whenever its statistics were stale (a study just imported).
 * `codeChanges: false` leaves out the diffs and files, which only the LLM judges read
 * (codeChange is then null); `pseudoReferences: false` leaves out the pseudo-references, which
 * only CRScore reads (an empty list then); `reference: false` leaves out the human reference
 * (null then), for which every review of their changes is read: τ's calibration reads one
 * system's reviews, a tenth of their changes' reviews in the analysis bench.
 */
export async function loadReviewsToScore(ids: readonly string[], options: { codeChanges?: boolean; pseudoReferences?: boolean; reference?: boolean } = {}): Promise<ReviewToScore[]> {
  // The ids as one array literal (lib/db/array-literal.ts), made once for both places.
  const literal = textArrayLiteral(ids);
  const ofChanges = Prisma.sql`x."codeChangeId" = ANY(ARRAY(SELECT "codeChangeId" FROM "CandidateReview" WHERE id = ANY(${literal}::text[])))`;
  const requested = Prisma.sql`x.id = ANY(${literal}::text[])`;
  const withCode = options.codeChanges ?? true;
  const withPseudo = options.pseudoReferences ?? true;
  const withReference = options.reference ?? true;
  const firstReference = Prisma.sql`(array_agg(x.text) FILTER (WHERE x."isReference" AND NOT x."textMissing") OVER (PARTITION BY x."codeChangeId" ORDER BY x.position, x.id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))[1]`;
  const rows = await rawRows<{ id: string; text: string; isReference: boolean; codeChangeId: string; first: boolean; diff: string | null; newFile: string | null; language: string; reference: string | null; pseudo: string[] | null }>(
    db,
    Prisma.sql`
      WITH x AS (
        SELECT x.id, x.text, x."isReference", x."textMissing", x."codeChangeId", x.position, ${withReference ? firstReference : Prisma.sql`NULL::text`} AS reference
        FROM "CandidateReview" x WHERE ${withReference ? ofChanges : requested}),
      scoped AS (SELECT *, id = first_value(id) OVER (PARTITION BY "codeChangeId" ORDER BY position, id) AS first FROM x WHERE ${requested}),
      -- once per change, not per review: its texts and (for CRScore) its pseudo-references as JSON
      -- (JSON.parse reads them over ten times faster than pg's parser of a text[] in JavaScript); NULL
      -- when not asked for or there are none, which pg hands over without parsing
      c AS (
        SELECT c.id, c.language, CASE WHEN ${withCode} THEN c.diff END AS diff, CASE WHEN ${withCode} THEN c."newFile" END AS "newFile",
          CASE WHEN ${withPseudo} THEN (SELECT json_agg(p.text ORDER BY p.position, p.id) FROM "PseudoReference" p WHERE p."codeChangeId" = c.id AND p.kind::text = ANY(${AUTOMATIC_KINDS}::text[])) END AS pseudo
        FROM "CodeChange" c WHERE c.id = ANY(ARRAY(SELECT DISTINCT "codeChangeId" FROM scoped)))
      -- a change's texts on its first review's row only (the rest share them)
      SELECT s.id, s.text, s."isReference", s."codeChangeId", s.first, c.language, CASE WHEN s.first THEN s.reference END AS reference,
        CASE WHEN s.first THEN c.diff END AS diff, CASE WHEN s.first THEN c."newFile" END AS "newFile", CASE WHEN s.first THEN c.pseudo END AS pseudo
      FROM scoped s JOIN c ON c.id = s."codeChangeId"`,
  );
  const ofChange = new Map<string, Pick<ReviewToScore, "reference" | "pseudoReferences" | "codeChange">>();
  for (const r of rows) {
    if (!r.first) continue;
    ofChange.set(r.codeChangeId, {
      reference: r.reference,
      pseudoReferences: r.pseudo?.filter((text) => text.trim() !== "") ?? [],
      codeChange: r.diff?.trim() ? r.diff : r.newFile?.trim() ? r.newFile : null,
    });
  }
  return rows.map((r) => ({ id: r.id, text: r.text, isReference: r.isReference, ...(ofChange.get(r.codeChangeId) as Pick<ReviewToScore, "reference" | "pseudoReferences" | "codeChange">), language: r.language }));
}

/** A review τ's calibration chooses from (lib/metric-runs/tau.ts); the chosen reviews' texts are read afterwards (loadReviewsToScore). */
export interface CalibrationReview {
  id: string;
  system: string;
  isReference: boolean;
  /** Whether a review of its code change has a human rating (any annotator, draft or submitted). */
  annotated: boolean;
}

/**
 * The study's changes with a rated review (any annotator, draft or submitted): the annotated
 * changes, which τ's calibration leaves out (lib/metric-runs/tau.ts) and τ_GT's sweep tells apart
 * (CRScore Table 18). Each change's reviews, then each review's ratings, probed by their
 * indexes until one is found: asked per review as one EXISTS joining ratings and reviews, the
 * planner of a study just written by COPY (no statistics yet) merged the whole rating index with
 * each review's change, about 4 minutes for 25,000 reviews with 100,000 ratings; this takes 20 ms
 * (the distinct changes of all the ratings took 100 ms).
 */
export async function ratedChanges(studyId: string, client: PrismaClient = db): Promise<Set<string>> {
  const rows = await rawRows<{ id: string }>(
    client,
    Prisma.sql`SELECT c.id FROM "CodeChange" c WHERE c."studyId" = ${studyId}
      AND EXISTS (SELECT 1 FROM "CandidateReview" x WHERE x."codeChangeId" = c.id AND EXISTS (SELECT 1 FROM "ReviewRating" rr WHERE rr."candidateReviewId" = x.id))`,
  );
  return new Set(rows.map((r) => r.id));
}

/** The study's reviews that have a text, with their system, whether they are human references and whether their change was annotated; in id order, so τ's sums run in the same order each time. */
export async function loadCalibrationReviews(studyId: string): Promise<CalibrationReview[]> {
  const [reviews, rated] = await Promise.all([
    rawRows<Omit<CalibrationReview, "annotated"> & { codeChangeId: string }>(
      db,
      Prisma.sql`SELECT r.id, r.system, r."isReference", r."codeChangeId" FROM "CandidateReview" r JOIN "CodeChange" c ON c.id = r."codeChangeId" WHERE c."studyId" = ${studyId} AND NOT r."textMissing" ORDER BY r.id`,
    ),
    ratedChanges(studyId),
  ]);
  return reviews.map(({ codeChangeId, ...review }) => ({ ...review, annotated: rated.has(codeChangeId) }));
}

/**
 * Every review and pseudo-reference text of a study: the corpus the offline TF-IDF embedder is
 * fitted on, in no particular order (fitTfidf sorts them). Through pg: Prisma took 80-200 ms of
 * this process's CPU for the 32,500 rows of the analysis bench's study, read in under 20 ms by
 * PostgreSQL.
 */
export async function studyCorpus(studyId: string): Promise<string[]> {
  const texts = (table: "CandidateReview" | "PseudoReference") =>
    rawRows<{ text: string }>(db, Prisma.sql`SELECT t.text FROM ${Prisma.raw(`"${table}"`)} t LEFT JOIN "CodeChange" j0 ON j0.id = t."codeChangeId" WHERE j0."studyId" = ${studyId} AND j0.id IS NOT NULL`);
  const [reviews, pseudoReferences] = await Promise.all([texts("CandidateReview"), texts("PseudoReference")]);
  return [...reviews, ...pseudoReferences].map((r) => r.text);
}

/** A review of the study order, named as the lead knows it: its code change's and its own external id, and its system. */
export interface OrderedReview {
  id: string;
  isReference: boolean;
  codeChange: string;
  review: string;
  system: string;
}

/**
 * The study's reviews in study order (change position, review position), with the reference
 * flag; reviews imported without their text (Review.textMissing) are not scored.
 */
export async function studyReviewOrder(studyId: string): Promise<OrderedReview[]> {
  return db.$queryRaw<OrderedReview[]>`
    SELECT r.id, r."isReference", c."externalId" AS "codeChange", r."externalId" AS review, r.system FROM "CandidateReview" r JOIN "CodeChange" c ON c.id = r."codeChangeId"
    WHERE c."studyId" = ${studyId} AND NOT r."textMissing"
    ORDER BY c.position, c.id, r.position, r.id`;
}

/** Human scores of the study's generated reviews that SWE-Judge's team trials may correlate with (lib/metric-runs/judges.ts): GradedReviews grades, and review ratings' scores. */
export async function sweCalibrationScores(studyId: string): Promise<{ grades: { reviewId: string; grade: number }[]; ratings: { reviewId: string; scores: unknown }[] }> {
  const where = { review: { codeChange: { studyId }, isReference: false } };
  const [grades, ratings] = await Promise.all([
    db.referenceGrade.findMany({ where, select: { reviewId: true, grade: true } }),
    db.reviewRating.findMany({ where, select: { reviewId: true, scores: true } }),
  ]);
  return { grades, ratings };
}
