/**
 * Reports of the dashboards and their JSON routes, computed once per state of the study's
 * data: a cheap fingerprint query (counts, versions, last update times and value hashes of
 * the study's annotations, reviews, claims, consensus values, assignment statuses, judge runs' opt-ins and, for
 * validity, metric scores) keys an
 * in-process cache, so auto-refreshing dashboards and several leads watching the same study
 * recompute only when something changed. Bootstrap CIs dominate the cost on big studies, seconds
 * of CPU per report (scripts/bench/analysis.ts measures them): there the web process computes
 * only the point estimates (nResamples 0) here and the worker the CIs (lib/analysis/report-jobs.ts).
 */
import "server-only";
import type { AgreementOptions, AgreementReport, ValidityOptions, ValidityReport, LevelFreeSource, Table4Report } from "@/lib/analysis";
import { table4Report } from "@/lib/analysis/table4";
import { agreementReport, validityReport } from "@/lib/data/reports";
import { resolveEmbeddingConfig } from "@/lib/embeddings/config";
import { db, Prisma } from "@/lib/db/client";

interface Entry {
  promise: Promise<unknown>;
}

const MAX_ENTRIES = 24;
const state = globalThis as unknown as { crjudgeReportCache?: Map<string, Entry> };
const cache = (state.crjudgeReportCache ??= new Map<string, Entry>());

function memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.promise as Promise<T>;
  }
  const entry: Entry = { promise: compute() };
  entry.promise.catch(() => cache.delete(key));
  cache.set(key, entry);
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  return entry.promise as Promise<T>;
}

/** The state of everything the reports read for a study; changes whenever a number could. */
export async function studyFingerprint(studyId: string, withScores: boolean): Promise<string> {
  return (await dashboardState(studyId, withScores)).fingerprint;
}

/**
 * studyFingerprint, and in the same statement the state of the study's item sets, which the
 * dashboards offer (a report restricted to one has its ids in its options, so reports need not
 * be computed again when a set is added).
 */
export async function dashboardState(studyId: string, withScores: boolean): Promise<{ fingerprint: string; itemSets: string }> {
  const scores = withScores
    ? Prisma.sql`(SELECT count(*) || '/' || coalesce(max("computedAt")::text, '') || '/' || coalesce(sum(hashtext("candidateReviewId" || metric || "paramsKey" || coalesce(value::text, ''))), 0)
         FROM "MetricScore" WHERE "candidateReviewId" IN (SELECT id FROM rv))`
    : Prisma.sql`NULL`;
  const rows = await db.$queryRaw<Record<string, string | null>[]>`
    WITH ch AS (SELECT id FROM "CodeChange" WHERE "studyId" = ${studyId}),
         rv AS (SELECT id, system, "isReference" FROM "CandidateReview" WHERE "codeChangeId" IN (SELECT id FROM ch)),
         pr AS (SELECT id, "updatedAt" FROM "PseudoReference" WHERE "codeChangeId" IN (SELECT id FROM ch))
    SELECT
      (SELECT "updatedAt"::text FROM "Study" WHERE id = ${studyId}) AS study,
      (SELECT count(*)::text FROM ch) AS changes,
      (SELECT count(*) || '/' || coalesce(sum(hashtext(id || system || "isReference"::text)), 0) FROM rv) AS reviews,
      (SELECT count(*) || '/' || coalesce(max("updatedAt")::text, '') FROM pr) AS claims,
      (SELECT count(*) || '/' || coalesce(sum(version), 0) || '/' || coalesce(max("updatedAt")::text, '') || '/' || coalesce(sum(hashtext(id || coalesce(code::text, ''))), 0)
         FROM "ClaimJudgement" WHERE "pseudoReferenceId" IN (SELECT id FROM pr)) AS judgements,
      (SELECT count(*) || '/' || coalesce(sum(version), 0) || '/' || coalesce(max("updatedAt")::text, '') || '/' || coalesce(sum(hashtext(id || scores::text)), 0)
         FROM "ReviewRating" WHERE "candidateReviewId" IN (SELECT id FROM rv)) AS ratings,
      (SELECT count(*) || '/' || coalesce(sum(version), 0) || '/' || coalesce(max("updatedAt")::text, '') || '/' || coalesce(sum(hashtext(id || grade::text)), 0)
         FROM "ReferenceGrade" WHERE "candidateReviewId" IN (SELECT id FROM rv)) AS grades,
      (SELECT count(*) || '/' || coalesce(sum(version), 0) || '/' || coalesce(max("updatedAt")::text, '') || '/' || coalesce(sum(hashtext(id || "highQuality"::text)), 0)
         FROM "CommentFilterLabel" WHERE "candidateReviewId" IN (SELECT id FROM rv)) AS filters,
      (SELECT count(*) || '/' || coalesce(sum(version), 0) || '/' || coalesce(max("updatedAt")::text, '') || '/' || coalesce(sum(hashtext(id || answers::text)), 0)
         FROM "CommentAnswers" WHERE "reviewCommentId" IN (SELECT c.id FROM "ReviewComment" c JOIN "PullRequest" p ON p.id = c."pullRequestId" WHERE p."studyId" = ${studyId})) AS "commentAnswers",
      (SELECT count(*) || '/' || coalesce(sum(hashtext("itemId" || question || version::text || gold::text)), 0) FROM "Consensus" WHERE "studyId" = ${studyId}) AS consensus,
      -- A judge's answers count among the humans' once one of its runs opts in (docs/judges.md): an opt-in changes consensus and agreement without changing an answer.
      (SELECT count(*) || '/' || coalesce(sum(hashtext("judgeId" || "inConsensus"::text)), 0) FROM "JudgeRun" WHERE "studyId" = ${studyId}) AS "judgeRuns",
      -- Reports count submitted work (lib/analysis/drafts.ts): a submit changes them without changing an answer.
      (SELECT count(*) || '/' || coalesce(sum(hashtext(id || status::text)), 0) FROM "Assignment" WHERE "studyId" = ${studyId}) AS assignments,
      -- A set is replaced, never edited: a new id or update time.
      (SELECT count(*) || '/' || coalesce(sum(hashtext(id || "updatedAt"::text)), 0) FROM "ItemSet" WHERE "studyId" = ${studyId}) AS "itemSets",
      ${scores} AS scores`;
  const { itemSets, ...parts } = rows[0];
  return { fingerprint: JSON.stringify(parts), itemSets: itemSets ?? "" };
}

const keyOf = (kind: string, studyId: string, options: object, fingerprint: string) => `${kind}|${studyId}|${JSON.stringify(options)}|${fingerprint}`;

/** `compute()` once per state of the study's data (`fingerprint`: studyFingerprint), for other figures the dashboards show; the caller authorizes first. */
export function cachedForState<T>(kind: string, studyId: string, options: object, fingerprint: string, compute: () => Promise<T>): Promise<T> {
  return memo(keyOf(kind, studyId, options, fingerprint), compute);
}

/** agreementReport(studyId, options) for the current data (fingerprint), cached. */
export async function cachedAgreementReport(studyId: string, options: AgreementOptions, fingerprint?: string): Promise<AgreementReport> {
  const fp = fingerprint ?? (await studyFingerprint(studyId, false));
  return memo(keyOf("agreement", studyId, options, fp), () => agreementReport(studyId, options));
}

/**
 * A validity report's sections that depend on neither the level nor the bootstrap (system
 * ranking, score levels, KS matrix, Table 18, kappas), kept per state of the data and per the
 * options that choose the report's points: the review and system reports, with and without
 * CIs, compute them once.
 */
export function sharedValiditySections(studyId: string, options: ValidityOptions, fingerprint: string): LevelFreeSource {
  const { metric, human, signature, includeReferences, includeDrafts, items } = options;
  return (compute) => memo(keyOf("validity-sections", studyId, { metric, human, signature, includeReferences, includeDrafts, items }, fingerprint), compute);
}

/** validityReport(studyId, options) for the current data (fingerprint), cached. */
export async function cachedValidityReport(studyId: string, options: ValidityOptions, fingerprint?: string): Promise<ValidityReport> {
  const fp = fingerprint ?? (await studyFingerprint(studyId, true));
  return memo(keyOf("validity", studyId, options, fp), () => validityReport(studyId, options, db, sharedValiditySections(studyId, options, fp)));
}

/**
 * table4Report(studyId) for the current data and embedding endpoint, cached: it embeds every
 * rated review and claim, so the CRScore tables page computes it once per state, not per load.
 */
export async function cachedTable4Report(studyId: string): Promise<Table4Report> {
  const config = resolveEmbeddingConfig();
  const endpoint = { model: config.model, url: config.kind === "http" ? config.url : null };
  return memo(keyOf("table4", studyId, endpoint, await studyFingerprint(studyId, false)), () => table4Report(studyId));
}
