/**
 * Leads' views of the annotators' work: an item previewed read-only as the
 * annotator's workspace shows it, with one annotator's stored answers overlaid, and the page of
 * one annotator (progress, time on task, answers per item, agreement). Authorization is in the
 * queries: the item or study is found among the studies the account leads (leadStudyWhere), the
 * annotator among the accounts working in that study; anything else answers 404, as if absent.
 * Nothing here writes: viewing leaves the database as it was.
 */
import "server-only";
import type { Prisma } from "@/lib/db/client";
import { db } from "@/lib/db/client";
import type { AssignmentStatus, TaskType } from "@/lib/generated/prisma/enums";
import { TASK_PHASES } from "@/lib/annotation/assignment-plan";
import { progressOf, type Progress } from "@/lib/annotation/progress";
import type { QuestionAgreement, RaterRef } from "@/lib/analysis/agreement-report";
import { answersByChange, type ItemAnswers } from "@/lib/analysis/annotator-answers";
import { gatherTaskColumns } from "@/lib/data/task-answers";
import type { ConsensusShare } from "@/lib/analysis/reliability";
import { cachedAgreementReport, studyFingerprint } from "@/lib/data/report-cache";
import { importedHere, readItem, readTask, workspaceStudy, workspaceStudySelect } from "@/lib/data/annotations";
import { FIRST_FILES } from "@/lib/review-comments/display";
import { taskReliability } from "@/lib/data/adjudication";
import { leadStudyWhere, requireLedStudy } from "@/lib/data/study-access";
import { AppError } from "@/lib/errors";
import { TASKS, type WorkspaceData } from "@/lib/tasks";
import type { SessionAccount } from "@/lib/auth/authenticate";

/** The accounts working in a study: assigned items in it, or its annotator members (imported annotators have no assignments). */
export function studyAnnotatorWhere(studyId: string): Prisma.AccountWhereInput {
  return { OR: [{ assignments: { some: { studyId } } }, { memberships: { some: { studyId, role: "ANNOTATOR" } } }] };
}

/** The preview without an annotator reads the answers of no one: the item as a new annotator sees it. */
const NO_ANNOTATOR = "";

/** The study's tasks in the order annotators do them. */
const tasksInOrder = (tasks: readonly TaskType[]) => TASK_PHASES.filter((t) => tasks.includes(t));

export interface PreviewAnnotator {
  id: string;
  name: string;
  email: string;
  /** Their assignment of this item and task, if they have one. */
  assignment: { status: AssignmentStatus; timeSpentMs: number } | null;
}

export interface CodeChangePreview {
  task: TaskType;
  tasks: TaskType[];
  /** Everyone working in the study, to choose whose answers to overlay. */
  annotators: PreviewAnnotator[];
  /** The annotator whose answers are shown; null: none. */
  annotatorId: string | null;
  /** What the annotator's workspace shows of the item and task (their order of the reviews, their stage-2 set, their answers). */
  data: Pick<WorkspaceData, "study" | "item" | "sources" | "claimVerification" | "reviewRating" | "referenceGrading" | "commentFiltering" | "commentQuestions">;
  imported: WorkspaceData["imported"];
}

/** An item of a study the account leads, for one task, as `annotatorId`'s workspace shows it (without answers when none is chosen). */
export async function codeChangePreview(account: Pick<SessionAccount, "id" | "role">, slug: string, codeChangeId: string, choice: { task?: TaskType; annotatorId?: string } = {}): Promise<CodeChangePreview> {
  const change = await db.codeChange.findFirst({ where: { id: codeChangeId, study: { slug, ...leadStudyWhere(account) } }, select: { id: true, study: { select: { id: true, ...workspaceStudySelect } } } });
  if (!change) throw new AppError("NOT_FOUND", { message: "No such code change in this study." });
  const { study } = change;
  const tasks = tasksInOrder(study.tasks);
  const task = choice.task ?? tasks[0];
  if (!task || !tasks.includes(task)) throw new AppError("NOT_FOUND", { message: "This study has no such task." });
  const [people, assignments] = await Promise.all([
    db.account.findMany({ where: studyAnnotatorWhere(study.id), orderBy: [{ name: "asc" }, { email: "asc" }], select: { id: true, name: true, email: true } }),
    db.assignment.findMany({ where: { studyId: study.id, codeChangeId: change.id, task: task }, select: { annotatorId: true, status: true, timeSpentMs: true } }),
  ]);
  const annotator = choice.annotatorId === undefined ? null : people.find((p) => p.id === choice.annotatorId);
  if (annotator === undefined) throw new AppError("NOT_FOUND", { message: "No such annotator in this study." });
  const [{ item, sources }, taskPart, imported] = await Promise.all([
    readItem(change.id, TASKS[task].itemKind === "reviewComment" ? FIRST_FILES : undefined),
    readTask(annotator?.id ?? NO_ANNOTATOR, { task: task, codeChangeId: change.id }, study),
    annotator ? importedHere(annotator.id, change.id, task) : null,
  ]);
  return {
    task,
    tasks,
    annotators: people.map((p) => {
      const own = assignments.find((a) => a.annotatorId === p.id);
      return { ...p, assignment: own ? { status: own.status, timeSpentMs: own.timeSpentMs } : null };
    }),
    annotatorId: annotator?.id ?? null,
    data: { study: workspaceStudy(study), item, sources, ...taskPart },
    imported,
  };
}

export interface AnnotatorItem {
  assignmentId: string;
  codeChangeId: string;
  externalId: string;
  filePath: string;
  task: TaskType;
  status: AssignmentStatus;
  inReliabilitySet: boolean;
  timeSpentMs: number;
  /** Their answers per claim or review of the item (drafts and gold items included). */
  answers: ItemAnswers[];
}

export interface AnnotatorAgreement {
  task: TaskType;
  question: string;
  label: string;
  level: QuestionAgreement["level"];
  /** Cohen's kappa with each other annotator (the agreement report's pairwise matrix, its row of this annotator). */
  method: string;
  pairs: { rater: RaterRef; value: number | null; n: number; reason?: string; note?: string }[];
  /** Share of their answers equal to the item's consensus without their own answer (the agreement page's reliability table). */
  withConsensus: ConsensusShare | null;
  /** Dawid-Skene competence; null for ordinal questions. */
  competence: number | null;
}

export interface AnnotatorOverview {
  study: { slug: string; name: string; tasks: TaskType[] };
  annotator: { id: string; name: string; email: string; active: boolean };
  progress: Progress;
  items: AnnotatorItem[];
  agreement: AnnotatorAgreement[];
  /** What the agreement figures count (the agreement report's own statement). */
  counted: string;
}

/** One annotator's work in a study the account leads: progress, time on task, answers per item and agreement. */
export async function annotatorOverview(account: Pick<SessionAccount, "id" | "role">, slug: string, annotatorId: string): Promise<AnnotatorOverview> {
  const study = await requireLedStudy(account, slug);
  const annotator = await db.account.findFirst({ where: { id: annotatorId, ...studyAnnotatorWhere(study.id) }, select: { id: true, name: true, email: true, active: true } });
  if (!annotator) throw new AppError("NOT_FOUND", { message: "No such annotator in this study." });
  const tasks = tasksInOrder(study.tasks);
  const fingerprint = await studyFingerprint(study.id, false);
  const [assignments, ratings, report, reliability] = await Promise.all([
    db.assignment.findMany({
      where: { studyId: study.id, annotatorId: annotator.id },
      orderBy: { position: "asc" },
      select: {
        id: true,
        task: true,
        status: true,
        inReliabilitySet: true,
        timeSpentMs: true,
        codeChange: { select: { id: true, externalId: true, filePath: true, pullRequest: { select: { externalId: true, codeChanges: { orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true } } } } } },
      },
    }),
    // Every answer, gold items and drafts too.
    Promise.all(tasks.map((task) => gatherTaskColumns(study, task, db, { gold: "include", drafts: "include" }))),
    // Pairwise Cohen's kappa needs no CIs: the report without resamples, cached per state of the study.
    cachedAgreementReport(study.id, { bootstrap: { nResamples: 0 } }, fingerprint),
    Promise.all(tasks.map(async (task) => ({ task, questions: await taskReliability(account, study.slug, task, fingerprint) }))),
  ]);
  const answers = new Map(ratings.map((data) => [data.task, answersByChange(data, annotator.id)]));
  const agreement = report.tasks.flatMap((t) =>
    t.questions.flatMap((q): AnnotatorAgreement[] => {
      const own = q.raters.findIndex((r) => r.id === annotator.id);
      if (own < 0) return [];
      const reliable = reliability.find((r) => r.task === t.task)?.questions.find((r) => r.question.key === q.question)?.annotators.find((a) => a.rater === annotator.id);
      return [
        {
          task: t.task,
          question: q.question,
          label: q.label,
          level: q.level,
          method: q.pairwise.method,
          pairs: q.raters.flatMap((rater, j) => {
            const cell = q.pairwise.matrix[own][j];
            return j === own || !cell ? [] : [{ rater, value: cell.value, n: cell.n, ...(cell.reason === undefined ? {} : { reason: cell.reason }), ...(cell.note === undefined ? {} : { note: cell.note }) }];
          }),
          withConsensus: reliable?.withConsensus ?? null,
          competence: reliable?.competence ?? null,
        },
      ];
    }),
  );
  return {
    study: { slug: study.slug, name: study.name, tasks: tasks },
    annotator,
    progress: progressOf(assignments),
    items: assignments.map((a) => {
      // An assignment of a pull request's comments covers every file's comments (lib/tasks/comment-questions).
      const wholePullRequest = TASKS[a.task].itemKind === "reviewComment" && a.codeChange.pullRequest;
      const files = wholePullRequest ? wholePullRequest.codeChanges.map((c) => c.id) : [a.codeChange.id];
      return {
        assignmentId: a.id,
        codeChangeId: a.codeChange.id,
        externalId: wholePullRequest ? wholePullRequest.externalId : a.codeChange.externalId,
        filePath: wholePullRequest ? `pull request ${wholePullRequest.externalId}` : a.codeChange.filePath,
        task: a.task,
        status: a.status,
        inReliabilitySet: a.inReliabilitySet,
        timeSpentMs: a.timeSpentMs,
        answers: files.flatMap((id) => answers.get(a.task)?.get(id) ?? []),
      };
    }),
    agreement,
    counted: report.settings.counted,
  };
}
