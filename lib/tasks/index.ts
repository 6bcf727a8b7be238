/** The task descriptors by task type (see ./types.ts), in the order exports list a review's annotations. */
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { Question, StudyScales } from "@/lib/analysis/questions";
import { claimVerification } from "./claim-verification";
import { commentFiltering } from "./comment-filtering";
import { commentQuestions } from "./comment-questions";
import { referenceGrading } from "./reference-grading";
import { reviewRating } from "./review-rating";
import type { SaveKind } from "@/lib/annotation/values";
import type { AnswerOf, MissingAnswer } from "@/lib/annotation/completeness";
import { COMMON_SHORTCUTS, MOVING_SHORTCUTS, type ShortcutHelp } from "@/lib/annotation/keymap";
import type { TaskDescriptor, TaskWorkspace } from "./types";

export type { CodebookSection, TaskDescriptor, Versioned, WorkspaceData, WorkspaceReview } from "./types";

export const TASKS: Record<TaskType, TaskDescriptor> = {
  CLAIM_VERIFICATION: claimVerification,
  REVIEW_RATING: reviewRating,
  REFERENCE_GRADING: referenceGrading,
  COMMENT_FILTERING: commentFiltering,
  COMMENT_QUESTIONS: commentQuestions,
};

export const TASK_LIST: readonly TaskDescriptor[] = Object.values(TASKS);

/** The task whose workspace saves values of this kind. */
export function taskOfKind(kind: SaveKind): TaskDescriptor {
  return TASK_LIST.find((t) => t.values[kind] !== undefined)!;
}

/** The task whose time reports use this key prefix, if any. */
export function taskOfTimeKey(key: string): TaskDescriptor | undefined {
  return TASK_LIST.find((t) => t.timeKey === key);
}

/** The questions of one task in a study. */
export function taskQuestions(task: TaskType, study: StudyScales): Question[] {
  return TASKS[task].questions(study);
}

/** The task a review-level human question belongs to (for correlations with metrics). */
export function reviewQuestionTask(key: string, study: StudyScales): TaskType | null {
  return TASK_LIST.find((t) => t.itemKind === "review" && t.questions(study).some((q) => q.key === key))?.task ?? null;
}

/** What is still missing before the item can be submitted, in the order the workspace shows it; empty when complete (lib/annotation/completeness.ts). */
export function missingAnswers(workspace: TaskWorkspace, answer: AnswerOf, dimensions: readonly string[]): MissingAnswer[] {
  return TASK_LIST.flatMap((task) => task.missing(workspace, answer, dimensions));
}

/** Every shortcut of a task's workspace, as the `?` overlay lists them: moving, the task's own, then the common ones. */
export function shortcutsOf(task: TaskType): ShortcutHelp[] {
  return [...MOVING_SHORTCUTS, ...TASKS[task].shortcuts, ...COMMON_SHORTCUTS];
}
