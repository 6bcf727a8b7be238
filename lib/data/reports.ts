/**
 * The reads of the study-level reports: each report's data from the database, handed to its
 * computation in lib/analysis (agreement, validity, CRScore Table 1).
 */
import "server-only";
import { db, type PrismaClient } from "@/lib/db/client";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { agreementReportOf, type AgreementOptions, type AgreementReport, type GatheredTask } from "@/lib/analysis/agreement-report";
import { studyJudges } from "@/lib/data/judge-runs";
import { taskConsensus } from "@/lib/data/consensus";
import { annotatorsOf, type ValidityOptions, type ValidityReport, validityReportOf, type LevelFreeSource } from "@/lib/analysis/validity-report";
import { claimQualityReportOf, type ClaimQualityReport, LLM_CLAIM_KINDS } from "@/lib/analysis/claim-quality";
import { type DraftMode, workKey } from "@/lib/analysis/drafts";
import { isCrscoreColumn, sweepMatches } from "@/lib/analysis/threshold-sweep";
import { listStudyMetrics, metricValuesForStudy } from "@/lib/data/metric-scores";
import { ratedChanges } from "@/lib/data/reviews-to-score";
import { requireStudy } from "@/lib/data/studies";
import { gatherTaskColumns, humanScores } from "@/lib/data/task-answers";
import { raterNames } from "@/lib/data/accounts";
import { AppError } from "@/lib/errors";

/** The agreement report of a study (all tasks, or `options.task`): each task's ratings read in turn. */
export async function agreementReport(studyId: string, options: AgreementOptions = {}, client: PrismaClient = db): Promise<AgreementReport> {
  const study = await requireStudy({ id: studyId }, client);
  const drafts = options.includeDrafts ? "include" : "exclude";
  return agreementReportOf(study, options, async (task) => {
    const gold = options.includeGold ? "include" : "exclude";
    const data = await gatherTaskColumns(study, task, client, { gold, drafts });
    const names = await raterNames(data.raters, client);
    const judgeIds = await studyJudges(study.id, task, client);
    let judges: GatheredTask["judges"];
    if (judgeIds.size > 0) {
      // Every rater's answers, judges too, and the consensus answers (the humans', and opted-in judges') to hold them against.
      const all = await gatherTaskColumns(study, task, client, { gold, drafts, judges: "all" });
      const consensus = await taskConsensus(client, study, task);
      const values = new Map([...consensus].map(([item, answers]) => [item, new Map([...answers].map(([q, c]) => [q, c.value]))]));
      judges = { data: all, ids: judgeIds, names: await raterNames(all.raters, client), consensus: values };
    }
    return { data, names, claimQuality: task === "CLAIM_VERIFICATION" ? await claimQualityReport(study.id, client, drafts) : null, judges };
  });
}

/** The (annotator, code change) pairs of the study whose assignment of this task is not submitted (lib/analysis/drafts.ts). */
async function unsubmittedWork(client: PrismaClient, studyId: string, task: TaskType): Promise<Set<string>> {
  const open = await client.assignment.findMany({ where: { studyId, task: task, status: { not: "DONE" } }, select: { annotatorId: true, codeChangeId: true } });
  return new Set(open.map((a) => workKey(a.annotatorId, a.codeChangeId)));
}

/** CRScore Table 1 of a study (lib/analysis/claim-quality.ts). */
export async function claimQualityReport(studyId: string, client: PrismaClient = db, drafts: DraftMode = "exclude"): Promise<ClaimQualityReport> {
  const inStudy = { codeChange: { studyId } };
  const [claims, judgements, added, consensus, assignments, unsubmitted] = await Promise.all([
    client.pseudoReference.findMany({ where: { ...inStudy, kind: { in: [...LLM_CLAIM_KINDS] } }, select: { id: true, codeChangeId: true, codeChange: { select: { language: true } } } }),
    client.claimJudgement.findMany({
      where: { pseudoReference: { ...inStudy, kind: { in: [...LLM_CLAIM_KINDS] } } },
      select: { pseudoReferenceId: true, annotatorId: true, code: true, importRun: { select: { primary: true } } },
    }),
    client.pseudoReference.findMany({ where: { ...inStudy, kind: "ANNOTATOR_ADDED" }, select: { codeChange: { select: { language: true } } } }),
    client.consensus.findMany({ where: { studyId, task: "CLAIM_VERIFICATION", question: "code" }, select: { itemId: true, value: true } }),
    client.assignment.findMany({ where: { studyId, task: "CLAIM_VERIFICATION" }, orderBy: [{ createdAt: "asc" }, { position: "asc" }, { id: "asc" }], select: { annotatorId: true, codeChangeId: true } }),
    drafts === "include" ? new Set<string>() : unsubmittedWork(client, studyId, "CLAIM_VERIFICATION"),
  ]);
  return claimQualityReportOf({ claims, judgements, added, consensus, assignments, unsubmitted }, drafts);
}

/** The validity report of a study: a metric's stored scores against a human question. */
export async function validityReport(studyId: string, options: ValidityOptions, client: PrismaClient = db, shared?: LevelFreeSource): Promise<ValidityReport> {
  const study = await requireStudy({ id: studyId }, client);
  const crscore = isCrscoreColumn(options.metric);
  // The reads at once: on a big study each keeps PostgreSQL busy for a while. The annotators'
  // names follow the ratings at once (the level-free sections name them, when computed here).
  const humanRead = humanScores(study, options.human, client, options.includeDrafts ? "include" : "exclude");
  const valuesRead = metricValuesForStudy(study.id, options.metric, options.signature, client, { details: crscore && "bestMatches" });
  const [human, names, values, matches, referenceReviews, missingText, annotated] = await Promise.all([
    humanRead,
    humanRead.then((h) => raterNames([...annotatorsOf(h)], client)),
    valuesRead,
    // CRScore's best matches, parsed and sorted while the ratings are still being read.
    valuesRead.then((v) => sweepMatches(v?.details ?? new Map())),
    client.review.findMany({ where: { codeChange: { studyId: study.id }, isReference: true }, select: { id: true, codeChangeId: true } }),
    // Reviews imported without their text are left out, and counted.
    client.review.findMany({ where: { codeChange: { studyId: study.id }, textMissing: true }, select: { id: true } }).then((rows) => new Set(rows.map((r) => r.id))),
    crscore ? ratedChanges(study.id, client) : new Set<string>(),
  ]);
  if (!values) {
    const available = [...new Set((await listStudyMetrics(study.id, client)).map((v) => v.metric))];
    throw new AppError("NOT_FOUND", { message: `study ${study.slug} has no stored scores for metric "${options.metric}"${options.signature ? ` with signature ${options.signature}` : ""}; stored: ${available.join(", ") || "none"} (compute with \`metrics --study ${study.slug} --metric NAME\` or import-scores)` });
  }
  return validityReportOf(study, options, { human, names, values, matches, referenceReviews, missingText, annotated }, shared);
}
