import { describe, expect, test } from "vitest";
import { planAssignments } from "@/lib/annotation/assignment-plan";
import { equalBatches, releaseRuleMet, roundClosed } from "@/lib/annotation/rounds";
import type { TaskType } from "@/lib/generated/prisma/enums";

describe("calibration rounds", () => {
  test("equal batches in order, the first ones one larger when the count does not divide", () => {
    expect(equalBatches([1, 2, 3, 4, 5, 6], 3)).toEqual([[1, 2], [3, 4], [5, 6]]);
    expect(equalBatches([1, 2, 3, 4, 5, 6, 7], 3)).toEqual([[1, 2, 3], [4, 5], [6, 7]]);
    expect(equalBatches([1, 2], 5)).toEqual([[1], [2]]);
  });

  test("a round is closed when it has assignments and all are finished", () => {
    expect(roundClosed(["DONE", "SKIPPED"])).toBe(true);
    expect(roundClosed(["DONE", "IN_PROGRESS"])).toBe(false);
    expect(roundClosed([])).toBe(false);
  });

  test("the release rule needs the lower CI bound of the coefficient at the threshold on every question with a value", () => {
    const q = (low: number | null, value: number | null = 0.7) => ({ question: "q", coefficients: [{ key: "fleiss", value, ci: { low } }, { key: "alpha", value: 0.1, ci: { low: 0 } }] });
    expect(releaseRuleMet([q(0.61), q(0.6)], "fleiss", 0.6)).toBe(true);
    expect(releaseRuleMet([q(0.61), q(0.59)], "fleiss", 0.6)).toBe(false);
    expect(releaseRuleMet([q(null)], "fleiss", 0.6)).toBe(false);
    // a question where the coefficient is undefined does not count; none with a value never releases
    expect(releaseRuleMet([q(0.8), q(null, null)], "fleiss", 0.6)).toBe(true);
    expect(releaseRuleMet([q(null, null)], "fleiss", 0.6)).toBe(false);
    expect(releaseRuleMet([q(0.9)], "alpha", 0.6)).toBe(false);
  });

  test("the plan gives every annotator every round's items first, round by round, in each round's order", () => {
    const item = (id: string) => ({ id, tasks: ["REFERENCE_GRADING"] as TaskType[] });
    const plan = planAssignments({ seed: 3, items: [item("x"), item("y")], annotatorIds: ["u1", "u2"], annotatorsPerItem: 1, reliabilitySetSize: 0, rounds: [[item("r1b"), item("r1a")], [item("r2a")]] });
    for (const account of ["u1", "u2"]) {
      const queue = plan.filter((a) => a.annotatorId === account).sort((a, b) => a.position - b.position).map((a) => a.codeChangeId);
      expect(queue.slice(0, 3)).toEqual(["r1b", "r1a", "r2a"]);
      expect(queue).toHaveLength(4);
    }
  });
});
