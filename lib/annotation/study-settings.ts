/**
 * What editing a study's settings means for the annotations already stored. A change that would
 * leave stored work without its task, its Likert dimension or the scale it was given on is
 * refused, naming how much work it would affect; nothing is converted or dropped silently.
 * Changes stored work does not depend on (name, guidelines, hiding system names, annotators per
 * item, adding a task or a dimension) are always allowed, with a note where they matter.
 */
import { TASK_PHASES } from "@/lib/annotation/assignment-plan";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { TASKS } from "@/lib/tasks";

export interface StudySettingsShape {
  tasks: readonly TaskType[];
  likertDimensions: readonly string[];
  likertMin: number;
  likertMax: number;
  annotatorsPerItem: number;
}

/** The stored work of a study that its settings bear on (lib/data/study-settings.ts counts it). */
export interface SettingsUsage {
  /** Stored annotations per task (claim judgements, review ratings, reference grades, comment filter labels), imported ones included. */
  annotations: Record<TaskType, number>;
  /** Lead decisions (consensus and gold answers) per task. */
  consensus: Record<TaskType, number>;
  /** Lead decisions on review rating per question (a Likert dimension). */
  likertConsensus: Record<string, number>;
  /** Assignments an annotator has opened, skipped or submitted, per task. */
  startedAssignments: Record<TaskType, number>;
  /** Assignments nobody has opened yet, per task. */
  pendingAssignments: Record<TaskType, number>;
  /** Review ratings with at least one Likert score. */
  scoredRatings: number;
  /** Review ratings with a score on each dimension. */
  scoresByDimension: Record<string, number>;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const scale = (s: { likertMin: number; likertMax: number }) => `${s.likertMin}-${s.likertMax}`;
const listOf = (parts: string[]) => (parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`);

export const removedTasks = (current: StudySettingsShape, next: StudySettingsShape) => current.tasks.filter((t) => !next.tasks.includes(t));
const removedDimensions = (current: StudySettingsShape, next: StudySettingsShape) => current.likertDimensions.filter((d) => !next.likertDimensions.includes(d));
const addedDimensions = (current: StudySettingsShape, next: StudySettingsShape) => next.likertDimensions.filter((d) => !current.likertDimensions.includes(d));

/** Why the change from `current` to `next` may not be saved: one sentence per refused part (empty: allowed). */
export function settingsRefusals(current: StudySettingsShape, next: StudySettingsShape, usage: SettingsUsage): string[] {
  const refusals: string[] = [];
  for (const task of TASK_PHASES.filter((t) => removedTasks(current, next).includes(t))) {
    const held = [
      usage.annotations[task] ? `${plural(usage.annotations[task], `stored ${TASKS[task].annotationName}`)}` : "",
      usage.consensus[task] ? plural(usage.consensus[task], "lead decision") : "",
      usage.startedAssignments[task] ? plural(usage.startedAssignments[task], "started, skipped or submitted assignment") : "",
    ].filter(Boolean);
    if (held.length) refusals.push(`${TASK_LABELS[task]} cannot be removed: it has ${listOf(held)}, which would be left without their task.`);
  }
  const scaleChanged = current.likertMin !== next.likertMin || current.likertMax !== next.likertMax;
  const likertDecisions = current.likertDimensions.reduce((a, d) => a + (usage.likertConsensus[d] ?? 0), 0);
  if (scaleChanged && (usage.scoredRatings || likertDecisions)) {
    const held = [usage.scoredRatings ? plural(usage.scoredRatings, "stored review rating") : "", likertDecisions ? plural(likertDecisions, "lead decision") : ""].filter(Boolean);
    refusals.push(
      `The Likert scale cannot change from ${scale(current)} to ${scale(next)}: ${listOf(held)} ${usage.scoredRatings + likertDecisions === 1 ? "has" : "have"} scores on the ${scale(current)} scale, which would change meaning or fall outside the new scale.`,
    );
  }
  for (const dimension of removedDimensions(current, next)) {
    const held = [usage.scoresByDimension[dimension] ? plural(usage.scoresByDimension[dimension], "stored review rating") : "", usage.likertConsensus[dimension] ? plural(usage.likertConsensus[dimension], "lead decision") : ""].filter(Boolean);
    if (held.length) refusals.push(`The Likert dimension "${dimension}" cannot be removed or renamed: it is scored in ${listOf(held)}.`);
  }
  return refusals;
}

/** What an allowed change does besides storing the settings, for the lead to read after saving. */
export function settingsNotes(current: StudySettingsShape, next: StudySettingsShape, usage: SettingsUsage): string[] {
  const notes: string[] = [];
  for (const task of removedTasks(current, next)) {
    if (usage.pendingAssignments[task]) notes.push(`${TASK_LABELS[task]} removed with its ${plural(usage.pendingAssignments[task], "unopened assignment")}.`);
  }
  const added = addedDimensions(current, next);
  if (added.length && usage.scoredRatings)
    notes.push(`${plural(usage.scoredRatings, "stored review rating")} ${usage.scoredRatings === 1 ? "has" : "have"} no score on ${listOf(added.map((d) => `"${d}"`))}; they are kept as they are, and unsubmitted items ask for it before submitting.`);
  if (current.annotatorsPerItem !== next.annotatorsPerItem) notes.push(`Annotators per item (${next.annotatorsPerItem}) applies to the next assignment plan (Generate assignments); existing assignments are unchanged.`);
  return notes;
}
