/**
 * Reproducible assignment planning. Given the study's items, the annotators, how many
 * annotators label each item and the size of the shared reliability set (labelled by every
 * annotator, for agreement), it decides who labels what and in which order:
 * - the reliability set is the first `reliabilitySetSize` items of a seeded shuffle;
 * - every other item goes to `annotatorsPerItem` annotators, always the least loaded ones
 *   (ties broken by a seeded per-item order), so loads differ by at most one item;
 * - each annotator's queue is their items in a seeded per-annotator order, phase by phase:
 *   all stage-1 claim verification first, then stage-2 review rating (which needs stage 1),
 *   then reference grading and comment filtering (CRScore's annotators also finished the first
 *   stage before the second, Figure 7).
 * - gold items (known answers, attention checks) take no part in the above: each annotator gets
 *   `gold.perQueue` of them (a seeded choice per annotator), shuffled in among their other items.
 * - calibration rounds (lib/annotation/rounds.ts) take no part either: every annotator gets every
 *   round's items, at the head of the queue, round after round, each in the round's order.
 * The plan depends only on the seed and the sets of ids, not on the order they are given in.
 */
import type { TaskType } from "@/lib/generated/prisma/enums";
import { TASK_LIST, TASKS } from "@/lib/tasks";
import type { ItemContents } from "@/lib/tasks/types";
import { hashSeed, seededShuffle } from "./random";
import { AppError } from "@/lib/errors";

/** Queue phases, the descriptors' order (lib/tasks); stage 1 of every item comes before its stage 2. */
export const TASK_PHASES: readonly TaskType[] = TASK_LIST.map((task) => task.task);

export interface PlanItem {
  id: string;
  /** The study's task types that apply to this item (e.g. no claim verification without claims). */
  tasks: readonly TaskType[];
}

export interface PlanInput {
  seed: number;
  items: readonly PlanItem[];
  annotatorIds: readonly string[];
  annotatorsPerItem: number;
  reliabilitySetSize: number;
  /** Gold items mixed into every queue (left out of `items`). */
  gold?: { items: readonly PlanItem[]; perQueue: number };
  /** Calibration rounds in order, each its items in order (left out of `items`): labelled by every annotator before anything else. */
  rounds?: readonly (readonly PlanItem[])[];
}

export interface PlannedAssignment {
  annotatorId: string;
  codeChangeId: string;
  task: TaskType;
  /** 0-based position in the annotator's queue. */
  position: number;
  inReliabilitySet: boolean;
}

/** A plan that cannot be made as asked (bad settings); INVALID_INPUT for the lead. */
export class PlanError extends AppError {
  constructor(message: string) {
    super("INVALID_INPUT", { message });
  }
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The items in the plan's seeded order (independent of the order they are given in). */
function itemOrder(input: Pick<PlanInput, "seed" | "items">): PlanItem[] {
  const items = [...new Map(input.items.map((item) => [item.id, item])).values()].sort((a, b) => byString(a.id, b.id));
  return seededShuffle(items, hashSeed(input.seed, "items"));
}

/** The plan's reliability set: the first `reliabilitySetSize` items of the seeded order (stored as the study's reliability item set). */
export function planReliabilitySet(input: Pick<PlanInput, "seed" | "items" | "reliabilitySetSize">): string[] {
  if (!Number.isInteger(input.reliabilitySetSize) || input.reliabilitySetSize < 0) throw new PlanError("the reliability set size must be a whole number of at least 0");
  return itemOrder(input)
    .slice(0, input.reliabilitySetSize)
    .map((item) => item.id);
}

export function planAssignments(input: PlanInput): PlannedAssignment[] {
  if (!Number.isInteger(input.annotatorsPerItem) || input.annotatorsPerItem < 1) throw new PlanError("annotators per item must be a whole number of at least 1");
  const reliability = new Set(planReliabilitySet(input));
  const annotators = [...new Set(input.annotatorIds)].sort(byString);
  if (annotators.length === 0) return [];
  const order = itemOrder(input);
  const perItem = Math.min(input.annotatorsPerItem, annotators.length);

  const itemsOf = new Map<string, string[]>(annotators.map((a) => [a, []]));
  for (const item of order) {
    let chosen: string[];
    if (reliability.has(item.id)) chosen = annotators;
    else {
      const tieBreak = seededShuffle(annotators, hashSeed(input.seed, "tie", item.id));
      chosen = tieBreak
        .map((a, rank) => ({ a, rank, load: itemsOf.get(a)!.length }))
        .sort((x, y) => x.load - y.load || x.rank - y.rank)
        .slice(0, perItem)
        .map((x) => x.a);
    }
    for (const a of chosen) itemsOf.get(a)!.push(item.id);
  }

  const regular = new Set(order.map((item) => item.id));
  const gold = [...new Map((input.gold?.items ?? []).map((item) => [item.id, item])).values()].filter((item) => !regular.has(item.id)).sort((a, b) => byString(a.id, b.id));
  const byId = new Map([...order, ...gold].map((item) => [item.id, item]));
  const plan: PlannedAssignment[] = [];
  for (const annotatorId of annotators) {
    const checks = seededShuffle(gold, hashSeed(input.seed, "gold", annotatorId))
      .slice(0, input.gold?.perQueue ?? 0)
      .map((item) => item.id);
    const queue = seededShuffle([...itemsOf.get(annotatorId)!, ...checks].sort(byString), hashSeed(input.seed, "queue", annotatorId));
    let position = 0;
    for (const round of input.rounds ?? []) {
      for (const task of TASK_PHASES) {
        for (const item of round) if (item.tasks.includes(task)) plan.push({ annotatorId, codeChangeId: item.id, task, position: position++, inReliabilitySet: false });
      }
    }
    for (const task of TASK_PHASES) {
      for (const id of queue) {
        if (!byId.get(id)!.tasks.includes(task)) continue;
        plan.push({ annotatorId, codeChangeId: id, task, position: position++, inReliabilitySet: reliability.has(id) });
      }
    }
  }
  return plan;
}

/** Which of the study's task types an item supports, from what it has (each descriptor's `appliesTo`). */
export function applicableTasks(studyTasks: readonly TaskType[], item: ItemContents): TaskType[] {
  return studyTasks.filter((task) => TASKS[task].appliesTo(item));
}

/** A stored assignment, as a new plan is compared with it. */
export interface ExistingAssignment {
  id: string;
  annotatorId: string;
  codeChangeId: string;
  task: TaskType;
  status: string;
  position: number;
  inReliabilitySet: boolean;
}

export interface PlanEffect {
  /** Planned assignments not stored yet. */
  create: PlannedAssignment[];
  /** Stored assignments the plan keeps at another position or reliability flag. */
  update: { id: string; position: number; inReliabilitySet: boolean }[];
  /** Unopened (pending) assignments the plan drops. */
  remove: string[];
  /** Started, finished or skipped assignments the plan drops: kept, so that no work is lost. */
  keep: ExistingAssignment[];
}

/** The counts a preview shows of an effect. */
export function effectCounts(effect: PlanEffect): { create: number; update: number; remove: number; keep: number } {
  return { create: effect.create.length, update: effect.update.length, remove: effect.remove.length, keep: effect.keep.length };
}

/** What storing `plan` changes in the stored assignments (one per account, code change and task). */
export function planEffect(existing: readonly ExistingAssignment[], plan: readonly PlannedAssignment[]): PlanEffect {
  const key = (a: { annotatorId: string; codeChangeId: string; task: TaskType }) => `${a.annotatorId}|${a.codeChangeId}|${a.task}`;
  const byKey = new Map(existing.map((a) => [key(a), a]));
  const planned = new Set(plan.map(key));
  const stale = existing.filter((a) => !planned.has(key(a)));
  const effect: PlanEffect = { create: [], update: [], remove: stale.filter((a) => a.status === "PENDING").map((a) => a.id), keep: stale.filter((a) => a.status !== "PENDING") };
  for (const p of plan) {
    const found = byKey.get(key(p));
    if (!found) effect.create.push(p);
    else if (found.position !== p.position || found.inReliabilitySet !== p.inReliabilitySet) effect.update.push({ id: found.id, position: p.position, inReliabilitySet: p.inReliabilitySet });
  }
  return effect;
}
