/**
 * What a judge rater can answer: every question of every task, each stored as the annotators'
 * answers are (the task's save kind and value). Each task's descriptor declares its questions
 * (`judgeQuestions`, lib/tasks). A judge answers one question per run; its answer is merged into
 * the judge's stored value of the item, so a judge answering two Likert dimensions in two runs
 * holds one rating with both, as an annotator would.
 */
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { StudyScales } from "@/lib/analysis/questions";
import { TASKS } from "@/lib/tasks";
import type { JudgeQuestion } from "@/lib/tasks/types";
import { AppError } from "@/lib/errors";

export type { JudgeAnswerValue, JudgeOption, JudgeQuestion } from "@/lib/tasks/types";

/** Every question a judge can answer on a task of the study. */
export function judgeQuestions(task: TaskType, study: StudyScales): JudgeQuestion[] {
  return TASKS[task].judgeQuestions(study);
}

/** The question, or INVALID_INPUT naming the ones the task has. */
export function judgeQuestion(task: TaskType, key: string, study: StudyScales): JudgeQuestion {
  const questions = judgeQuestions(task, study);
  const found = questions.find((q) => q.key === key);
  if (!found) throw new AppError("INVALID_INPUT", { message: `no question "${key}" in task ${task} of this study (questions: ${questions.map((q) => q.key).join(", ")})` });
  return found;
}
