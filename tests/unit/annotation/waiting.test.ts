import { describe, expect, test } from "vitest";
import { afterOwnStage1, outsideRoundsHeld, waitingFor, waitingLabel, waitingSummary, waitingText, type WaitingInput } from "@/lib/annotation/waiting";

const item = (over: Partial<WaitingInput>): WaitingInput => ({ round: null, rounds: null, task: "REFERENCE_GRADING", stageOrder: false, consolidated: false, ownStage1Open: false, ...over });
const rounds = { last: 3, allReleased: false, outsideOpened: false };

describe("waitingFor", () => {
  test("an item of a round waits for that round's release", () => {
    expect(waitingFor(item({ round: { number: 2, released: false }, rounds }))).toEqual({ kind: "round", round: 2, outside: false });
    expect(waitingFor(item({ round: { number: 1, released: true }, rounds }))).toBeNull();
  });

  test("an item outside every round waits for the last round, unless every round is released or a lead opened them", () => {
    expect(waitingFor(item({ rounds }))).toEqual({ kind: "round", round: 3, outside: true });
    expect(waitingFor(item({ rounds: { ...rounds, allReleased: true } }))).toBeNull();
    expect(waitingFor(item({ rounds: { ...rounds, outsideOpened: true } }))).toBeNull();
    expect(waitingFor(item({ rounds: null }))).toBeNull();
    expect([outsideRoundsHeld(rounds), outsideRoundsHeld(null), outsideRoundsHeld({ ...rounds, outsideOpened: true })]).toEqual([true, false, false]);
  });

  test("stage 2 waits for consolidation under the stage order, once the annotator's own stage 1 is done", () => {
    const stage2 = { task: "REVIEW_RATING" as const, stageOrder: true };
    expect(waitingFor(item(stage2))).toEqual({ kind: "consolidation" });
    expect(waitingFor(item({ ...stage2, ownStage1Open: true }))).toBeNull();
    expect(waitingFor(item({ ...stage2, consolidated: true }))).toBeNull();
    expect(waitingFor(item({ ...stage2, stageOrder: false }))).toBeNull();
    expect(waitingFor(item({ task: "CLAIM_VERIFICATION", stageOrder: true }))).toBeNull();
    // the round comes first: a stage-2 item of an unreleased round waits for the round
    expect(waitingFor(item({ ...stage2, round: { number: 2, released: false }, rounds }))).toEqual({ kind: "round", round: 2, outside: false });
  });

  test("the reason in words names the round", () => {
    expect(waitingText({ kind: "round", round: 2, outside: false })).toMatch(/round 2.*waiting for the next round/);
    expect(waitingText({ kind: "round", round: 3, outside: true })).toMatch(/outside the calibration rounds.*round 3/);
    expect(waitingText({ kind: "consolidation" })).toMatch(/consolidated/);
  });
});

describe("the queue's words for waiting items", () => {
  test("each item's status, and the count per reason", () => {
    expect(waitingLabel({ kind: "round", round: 2, outside: false })).toBe("waiting for round 2 to open");
    expect(waitingLabel({ kind: "round", round: 3, outside: true })).toBe("waiting for round 3 (outside the rounds)");
    expect(waitingLabel({ kind: "consolidation" })).toBe("waiting for a lead to consolidate stage 1");
    expect(waitingSummary([{ kind: "consolidation" }, { kind: "round", round: 3, outside: true }, { kind: "round", round: 2, outside: false }, { kind: "round", round: 3, outside: false }])).toBe(
      "1 for round 2, 2 for round 3, 1 for a lead to consolidate stage 1",
    );
  });

  test("stage 2 before the annotator's own stage 1 is no wait, but comes after that stage 1 unless consolidated", () => {
    expect(afterOwnStage1({ task: "REVIEW_RATING", consolidated: false, ownStage1Open: true })).toBe(true);
    expect(afterOwnStage1({ task: "REVIEW_RATING", consolidated: true, ownStage1Open: true })).toBe(false);
    expect(afterOwnStage1({ task: "REVIEW_RATING", consolidated: false, ownStage1Open: false })).toBe(false);
    expect(afterOwnStage1({ task: "REFERENCE_GRADING", consolidated: false, ownStage1Open: true })).toBe(false);
  });
});
