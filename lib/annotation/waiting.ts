/**
 * Why an annotator's assignment cannot be worked on yet, when it waits for someone else:
 * - a calibration round (GradedReviews §4.3, batch-wise calibration): the code change's round is
 *   not released yet; a code change outside every round waits until the last round is released,
 *   unless a lead has opened the code changes outside rounds;
 * - consolidation (CRScore §4.2, stage order): stage 2 of a code change opens once a lead has
 *   consolidated its stage 1.
 * An assignment the annotator can open is not waiting, even when their own stage 1 comes first
 * (that is the annotator's own work, not a wait).
 */
import type { TaskType } from "@/lib/generated/prisma/enums";
import { WAITING_FOR_CONSOLIDATION } from "@/lib/annotation/stage-order";

/** The study's calibration rounds as the gate reads them; null for a study without rounds. */
export interface RoundsGate {
  /** The number of the study's last round. */
  last: number;
  /** Every round is released (rounds open in order, so this is the last round's release). */
  allReleased: boolean;
  /** A lead opened the code changes outside rounds before the last round's release. */
  outsideOpened: boolean;
}

/** What waitingFor reads of one assignment. */
export interface WaitingInput {
  /** The calibration round the code change is in, or null when it is in none. */
  round: { number: number; released: boolean } | null;
  rounds: RoundsGate | null;
  task: TaskType;
  /** The study holds stage 2 until stage 1 is consolidated (lib/annotation/stage-order). */
  stageOrder: boolean;
  consolidated: boolean;
  /** The annotator's own stage 1 of this code change is still to do. */
  ownStage1Open: boolean;
}

export type Waiting =
  /** `outside`: the code change is in no round and waits for the last round (`round`) to be released. */
  | { kind: "round"; round: number; outside: boolean }
  | { kind: "consolidation" };

/** Whether code changes outside every round are held by the rounds (see the file comment). */
export function outsideRoundsHeld(rounds: RoundsGate | null): boolean {
  return rounds !== null && !rounds.allReleased && !rounds.outsideOpened;
}

/** What the assignment waits for, or null when the annotator may work on it. */
export function waitingFor(item: WaitingInput): Waiting | null {
  if (item.round && !item.round.released) return { kind: "round", round: item.round.number, outside: false };
  if (!item.round && outsideRoundsHeld(item.rounds)) return { kind: "round", round: item.rounds!.last, outside: true };
  if (item.task === "REVIEW_RATING" && item.stageOrder && !item.consolidated && !item.ownStage1Open) return { kind: "consolidation" };
  return null;
}

/** The reason in words, for the annotator. */
export function waitingText(waiting: Waiting): string {
  if (waiting.kind === "consolidation") return WAITING_FOR_CONSOLIDATION;
  if (waiting.outside) return `This code change is outside the calibration rounds: waiting for the last round (round ${waiting.round}) to be released, or for a lead to open the code changes outside rounds.`;
  return `This code change belongs to calibration round ${waiting.round}, which is not open yet: waiting for the next round (a lead opens it after reviewing the agreement of the round before).`;
}

/**
 * Stage 2 of an item whose own stage 1 the annotator has still to do (and no lead has
 * consolidated): not a wait for someone else, but not workable before that stage 1 either, so the
 * workspace's `n` passes it too.
 */
export function afterOwnStage1(item: Pick<WaitingInput, "task" | "consolidated" | "ownStage1Open">): boolean {
  return item.task === "REVIEW_RATING" && !item.consolidated && item.ownStage1Open;
}

export const FINISH_STAGE_1 = "Finish claim verification (stage 1) of this item first: review rating uses its result.";

/** The queue's short status of a waiting item. */
export function waitingLabel(waiting: Waiting): string {
  if (waiting.kind === "consolidation") return "waiting for a lead to consolidate stage 1";
  return waiting.outside ? `waiting for round ${waiting.round} (outside the rounds)` : `waiting for round ${waiting.round} to open`;
}

/** How many items wait, and for what: "2 for round 3, 5 for a lead to consolidate stage 1". */
export function waitingSummary(waiting: readonly Waiting[]): string {
  const rounds = new Map<number, number>();
  let consolidation = 0;
  for (const w of waiting) {
    if (w.kind === "round") rounds.set(w.round, (rounds.get(w.round) ?? 0) + 1);
    else consolidation++;
  }
  return [...[...rounds].sort(([a], [b]) => a - b).map(([round, n]) => `${n} for round ${round}`), ...(consolidation ? [`${consolidation} for a lead to consolidate stage 1`] : [])].join(", ");
}
