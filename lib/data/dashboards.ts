/**
 * What the agreement and validity dashboards show, from one cached object per state of the
 * study's data and item sets (dashboardState, one statement): the item sets and metrics they
 * offer, the agreement report's options and each annotator's reliability.
 * A load of an unchanged study costs the study lookup, the fingerprint and, on big studies, the
 * state of the report's worker job.
 */
import "server-only";
import { type AgreementOptions, type ItemSetFilter } from "@/lib/analysis";
import type { StudyForAnalysis } from "@/lib/data/studies";
import { cachedForState, dashboardState } from "@/lib/data/report-cache";
import { taskReliability, type QuestionReliability } from "@/lib/data/adjudication";
import { type ItemSetSummary, itemSetFilter, listItemSets, reportItemSets } from "@/lib/data/item-sets";
import { listStudyMetrics, type StudyMetricVariant } from "@/lib/data/metric-scores";
import { findLedStudy } from "@/lib/data/study-access";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { dashboardReport, type DashboardReport } from "@/lib/analysis/report-jobs";
import type { SessionAccount } from "@/lib/auth/authenticate";

/** The page's query, as its form and links give it. */
export interface AgreementQuery {
  task?: TaskType;
  windowSize?: number;
  includeGold?: boolean;
  includeDrafts?: boolean;
  /** Name of an item set to restrict the report to. */
  set?: string;
}

export interface AgreementDashboard {
  study: { id: string; slug: string; name: string; tasks: TaskType[] };
  /** The task asked for when the study has it; undefined: every task. */
  task: TaskType | undefined;
  sets: ItemSetSummary[];
  itemSet: ItemSetSummary | undefined;
  options: AgreementOptions;
  fingerprint: string;
  shown: DashboardReport<"agreement">;
  reliability: { task: TaskType; questions: QuestionReliability[] }[];
}

/** The agreement dashboard of a study the account leads for `query`; null when there is no such study. */
export async function agreementDashboard(account: Pick<SessionAccount, "id" | "role">, slug: string, query: AgreementQuery): Promise<AgreementDashboard | null> {
  const study = await findLedStudy(account, slug);
  if (!study) return null;
  const task = query.task && study.tasks.includes(query.task) ? query.task : undefined;
  const { fingerprint, itemSets } = await dashboardState(study.id, false);
  const view = await cachedForState("agreement-dashboard", study.id, { ...query, task }, `${fingerprint}|${itemSets}`, async () => {
    const { sets } = await listItemSets(account, study.slug);
    const itemSet = sets.find((s) => s.name === query.set);
    const options: AgreementOptions = {
      task,
      windowSize: query.windowSize,
      ...(query.includeGold ? { includeGold: true } : {}),
      ...(query.includeDrafts ? { includeDrafts: true } : {}),
      ...(await reportItemSets(account, study.slug, itemSet?.name)),
    };
    const reliability = await Promise.all((task ? [task] : study.tasks).map(async (t) => ({ task: t, questions: await taskReliability(account, study.slug, t, fingerprint) })));
    return { sets, itemSet, options, reliability };
  });
  // Outside the cached object: on big studies the report's CIs arrive from the worker while the data stays the same.
  const shown = await dashboardReport("agreement", study.id, view.options, fingerprint);
  return { study: { id: study.id, slug: study.slug, name: study.name, tasks: study.tasks }, task, fingerprint, shown, ...view };
}

export interface ValidityChoices {
  study: StudyForAnalysis;
  fingerprint: string;
  /** The metric variants with stored scores (listStudyMetrics). */
  variants: StudyMetricVariant[];
  sets: ItemSetSummary[];
  itemSet: ItemSetSummary | undefined;
  /** The chosen item set as reports take it. */
  items: ItemSetFilter | undefined;
}

/** What the validity dashboard of a study the account leads offers, with the item set named `set` resolved; null when there is no such study. */
export async function validityChoices(account: Pick<SessionAccount, "id" | "role">, slug: string, set: string | undefined): Promise<ValidityChoices | null> {
  const study = await findLedStudy(account, slug);
  if (!study) return null;
  const { fingerprint, itemSets } = await dashboardState(study.id, true);
  const choices = await cachedForState("validity-choices", study.id, { set }, `${fingerprint}|${itemSets}`, async () => {
    const [variants, { sets }] = await Promise.all([listStudyMetrics(study.id), listItemSets(account, study.slug)]);
    const itemSet = sets.find((s) => s.name === set);
    return { variants, sets, itemSet, items: itemSet ? await itemSetFilter(account, study.slug, itemSet.name) : undefined };
  });
  const { id, slug: studySlug, name, tasks, likertDimensions, likertMin, likertMax, commentQuestions } = study;
  return { study: { id, slug: studySlug, name, tasks, likertDimensions, likertMin, likertMax, commentQuestions }, fingerprint, ...choices };
}
