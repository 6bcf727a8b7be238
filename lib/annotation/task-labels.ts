import type { TaskType } from "@/lib/generated/prisma/enums";
import { TASK_LIST } from "@/lib/tasks";

/** The task types' names, in the papers' words (pages, the workspace and settings messages): each descriptor's label. */
export const TASK_LABELS = Object.fromEntries(TASK_LIST.map((task) => [task.task, task.label])) as Readonly<Record<TaskType, string>>;
