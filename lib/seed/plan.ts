/**
 * Pure planning of the demo rows that depend on the annotators' work: assignment statuses,
 * each annotator's reproducible queue, and plausible times (time spent, start and end) for
 * every assignment and annotation.
 */
import type { AssignmentStatus, TaskType } from "@/lib/generated/prisma/client";
import { shuffled } from "@/lib/annotation/random";
import { seededRandom, type Random } from "@/lib/stats/random";
import type { DemoAddedClaim, DemoAnnotatorKey, DemoAnnotatorWork, DemoChange, DemoClaimJudgement, DemoFilterLabel, DemoRating, DemoStudy } from "./types";
import { InvariantError } from "@/lib/errors";

/** Queue phases: stage 1 (claims) of every item before stage 2 (rating), then the other tasks. */
export const TASK_ORDER: readonly TaskType[] = ["CLAIM_VERIFICATION", "REVIEW_RATING", "REFERENCE_GRADING", "COMMENT_FILTERING"];

interface PlannedBase {
  annotator: DemoAnnotatorKey;
  change: DemoChange;
  createdAt: Date;
  timeSpentMs: number;
}

/** What an annotation says; `target` is a pseudo-reference key or a review system. */
type AnnotationContent =
  | { kind: "judgement"; target: string; value: DemoClaimJudgement }
  | { kind: "addedClaim"; value: DemoAddedClaim }
  | { kind: "rating"; target: string; value: DemoRating }
  | { kind: "grade"; target: string; value: number }
  | { kind: "label"; target: string; value: DemoFilterLabel };

/** One annotation to write, by whom, on which change, and when. */
export type PlannedAnnotation = PlannedBase & AnnotationContent;

export interface PlannedAssignment {
  annotator: DemoAnnotatorKey;
  change: DemoChange;
  task: TaskType;
  position: number;
  status: AssignmentStatus;
  inReliabilitySet: boolean;
  skipReason: string | null;
  timeSpentMs: number;
  startedAt: Date | null;
  completedAt: Date | null;
}

export interface DemoPlan {
  /** Start of the timeline: when the study and its assignments were created. */
  startsAt: Date;
  assignments: PlannedAssignment[];
  annotations: PlannedAnnotation[];
}

/** Ranges of plausible durations in seconds. */
const SECONDS = {
  reading: [30, 120],
  judgement: [15, 75],
  addedClaim: [60, 150],
  rating: [40, 180],
  grade: [10, 45],
  label: [10, 40],
  /** Pause between two assignments. */
  pause: [60, 3 * 3600],
} as const;

/** The demo's work starts this long before the seed runs. */
const HISTORY_SPAN_MS = 4 * 24 * 3600 * 1000;

function durationMs(random: Random, [low, high]: readonly [number, number]): number {
  return Math.round((low + random() * (high - low)) * 1000);
}

/** Every change of the study in study order: standalone changes, then pull request files. */
function allChanges(study: DemoStudy): DemoChange[] {
  return [...study.changes, ...study.pullRequests.flatMap((pr) => pr.changes)];
}

/**
 * What a task asks for on a change: claims and implications (smells are not judged), every
 * review for rating, the generated (non-reference) reviews for grading and filtering.
 */
function requiredTargets(change: DemoChange, task: TaskType): string[] {
  switch (task) {
    case "CLAIM_VERIFICATION":
      return change.pseudoReferences.filter((ref) => ref.kind !== "SMELL").map((ref) => ref.key);
    case "REVIEW_RATING":
      return change.reviews.map((review) => review.system);
    case "REFERENCE_GRADING":
    case "COMMENT_FILTERING":
      return change.reviews.filter((review) => !review.isReference).map((review) => review.system);
    case "COMMENT_QUESTIONS":
      return [];
  }
}

/** The annotations one task's work consists of (added claims belong to claim verification). */
function taskAnnotations(work: DemoAnnotatorWork, task: TaskType): AnnotationContent[] {
  switch (task) {
    case "CLAIM_VERIFICATION":
      return [
        ...Object.entries(work.claims ?? {}).map(([target, value]) => ({ kind: "judgement" as const, target, value })),
        ...(work.addedClaims ?? []).map((value) => ({ kind: "addedClaim" as const, value })),
      ];
    case "REVIEW_RATING":
      return Object.entries(work.ratings ?? {}).map(([target, value]) => ({ kind: "rating" as const, target, value }));
    case "REFERENCE_GRADING":
      return Object.entries(work.grades ?? {}).map(([target, value]) => ({ kind: "grade" as const, target, value }));
    case "COMMENT_FILTERING":
      return Object.entries(work.filters ?? {}).map(([target, value]) => ({ kind: "label" as const, target, value }));
    case "COMMENT_QUESTIONS":
      return [];
  }
}

/** SKIPPED when skipped, PENDING with no annotation, DONE when every required target is covered. */
function taskStatus(change: DemoChange, work: DemoAnnotatorWork | undefined, task: TaskType): AssignmentStatus {
  if (work?.skipped?.[task] !== undefined) return "SKIPPED";
  const covered = new Set(taskAnnotations(work ?? {}, task).flatMap((a) => (a.kind === "addedClaim" ? [] : [a.target])));
  const required = requiredTargets(change, task);
  const unknown = [...covered].filter((target) => !required.includes(target));
  if (unknown.length > 0) throw new InvariantError(`demo change ${change.externalId}: ${task} annotations for unknown targets ${unknown.join(", ")}`);
  if (covered.size === 0) return "PENDING";
  return covered.size === required.length ? "DONE" : "IN_PROGRESS";
}

/** One annotator's queue: task phases in order, the changes in a seeded per-annotator order. */
function queue(changes: readonly DemoChange[], random: Random): Array<{ change: DemoChange; task: TaskType }> {
  const order = shuffled(changes, random);
  return TASK_ORDER.flatMap((task) => order.map((change) => ({ change, task })));
}

/**
 * Assignments of every annotator for every task on every change, and the annotations of the
 * work done, on a timeline starting four days before `now`. Reproducible: the random
 * streams depend only on the study's assignment seed and the annotator's rank.
 */
export function planDemo(study: DemoStudy, now: Date): DemoPlan {
  const changes = allChanges(study);
  const reliability = new Set(study.reliabilitySet);
  const startsAt = new Date(now.getTime() - HISTORY_SPAN_MS);
  const plan: DemoPlan = { startsAt, assignments: [], annotations: [] };
  (Object.keys(study.annotators) as DemoAnnotatorKey[]).forEach((annotator, rank) => {
    const random = seededRandom(study.assignmentSeed + rank);
    let clock = startsAt.getTime();
    queue(changes, random).forEach(({ change, task }, position) => {
      const work = change.work[annotator];
      const status = taskStatus(change, work, task);
      const assignment: PlannedAssignment = {
        annotator,
        change,
        task,
        position,
        status,
        inReliabilitySet: reliability.has(change.externalId),
        skipReason: work?.skipped?.[task] ?? null,
        timeSpentMs: 0,
        startedAt: null,
        completedAt: null,
      };
      plan.assignments.push(assignment);
      if (status === "PENDING") return;
      assignment.startedAt = new Date(clock);
      let spent = durationMs(random, SECONDS.reading);
      for (const annotation of taskAnnotations(work ?? {}, task)) {
        const timeSpentMs = durationMs(random, SECONDS[annotation.kind]);
        spent += timeSpentMs;
        plan.annotations.push({ ...annotation, annotator, change, timeSpentMs, createdAt: new Date(clock + spent) });
      }
      assignment.timeSpentMs = spent;
      if (status === "DONE") assignment.completedAt = new Date(clock + spent);
      clock += spent + durationMs(random, SECONDS.pause);
    });
  });
  return plan;
}
