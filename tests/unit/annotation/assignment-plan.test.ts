import { describe, expect, test } from "vitest";
import { applicableTasks, planAssignments, planEffect, PlanError, TASK_PHASES, type PlanInput } from "@/lib/annotation/assignment-plan";
import type { TaskType } from "@/lib/generated/prisma/enums";

const ALL: TaskType[] = ["CLAIM_VERIFICATION", "REVIEW_RATING", "REFERENCE_GRADING", "COMMENT_FILTERING"];
const items = Array.from({ length: 23 }, (_, i) => ({ id: `item-${String(i).padStart(2, "0")}`, tasks: i % 5 === 0 ? (["REVIEW_RATING"] as TaskType[]) : ALL }));
const input: PlanInput = { seed: 7, items, annotatorIds: ["u3", "u1", "u2", "u4"], annotatorsPerItem: 2, reliabilitySetSize: 5 };

describe("assignment planning", () => {
  const plan = planAssignments(input);

  test("reproducible, and independent of the order ids are given in", () => {
    expect(planAssignments(input)).toEqual(plan);
    expect(planAssignments({ ...input, items: items.slice().reverse(), annotatorIds: ["u4", "u2", "u1", "u3"] })).toEqual(plan);
    expect(planAssignments({ ...input, seed: 8 })).not.toEqual(plan);
  });

  test("the reliability set goes to every annotator, every other item to exactly annotatorsPerItem", () => {
    const annotatorsOf = new Map<string, Set<string>>();
    for (const a of plan) annotatorsOf.set(a.codeChangeId, (annotatorsOf.get(a.codeChangeId) ?? new Set()).add(a.annotatorId));
    const reliability = new Set(plan.filter((a) => a.inReliabilitySet).map((a) => a.codeChangeId));
    expect(reliability.size).toBe(5);
    for (const item of items) {
      const n = annotatorsOf.get(item.id)!.size;
      expect(n).toBe(reliability.has(item.id) ? 4 : 2);
    }
    // reliability flag is consistent per item
    for (const a of plan) expect(a.inReliabilitySet).toBe(reliability.has(a.codeChangeId));
  });

  test("gold items: perQueue of them in every queue, a seeded choice per annotator mixed among the others; none changes the rest of the plan", () => {
    const gold = Array.from({ length: 4 }, (_, i) => ({ id: `gold-${i}`, tasks: ["REFERENCE_GRADING"] as TaskType[] }));
    const mixed = planAssignments({ ...input, gold: { items: gold, perQueue: 2 } });
    expect(planAssignments({ ...input, gold: { items: gold, perQueue: 0 } })).toEqual(plan);
    const chosen = new Map<string, string[]>();
    for (const account of ["u1", "u2", "u3", "u4"]) {
      const queue = mixed.filter((a) => a.annotatorId === account).sort((a, b) => a.position - b.position);
      const checks = queue.filter((a) => a.codeChangeId.startsWith("gold-"));
      expect(checks).toHaveLength(2);
      expect(checks.every((a) => a.task === "REFERENCE_GRADING" && !a.inReliabilitySet)).toBe(true);
      expect(queue.map((a) => a.position)).toEqual(queue.map((_, i) => i));
      // the other items are the same as without gold
      expect(new Set(queue.filter((a) => !a.codeChangeId.startsWith("gold-")).map((a) => `${a.codeChangeId}|${a.task}`))).toEqual(
        new Set(plan.filter((a) => a.annotatorId === account).map((a) => `${a.codeChangeId}|${a.task}`)),
      );
      chosen.set(account, checks.map((a) => a.codeChangeId).sort());
    }
    expect(new Set([...chosen.values()].map((c) => c.join())).size).toBeGreaterThan(1);
  });

  test("loads are balanced: item counts differ by at most one", () => {
    const load = new Map<string, Set<string>>();
    for (const a of plan) load.set(a.annotatorId, (load.get(a.annotatorId) ?? new Set()).add(a.codeChangeId));
    const sizes = [...load.values()].map((s) => s.size);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  test("queues: positions 0..n-1, phases in order, so stage 1 of an item precedes its stage 2", () => {
    for (const account of ["u1", "u2", "u3", "u4"]) {
      const queue = plan.filter((a) => a.annotatorId === account).sort((a, b) => a.position - b.position);
      expect(queue.map((a) => a.position)).toEqual(queue.map((_, i) => i));
      const phases = queue.map((a) => TASK_PHASES.indexOf(a.task));
      expect(phases).toEqual(phases.slice().sort((a, b) => a - b));
      for (const a of queue.filter((x) => x.task === "REVIEW_RATING")) {
        const stage1 = queue.find((x) => x.codeChangeId === a.codeChangeId && x.task === "CLAIM_VERIFICATION");
        if (stage1) expect(stage1.position).toBeLessThan(a.position);
      }
    }
  });

  test("only the task types an item supports", () => {
    for (const a of plan) expect(items.find((i) => i.id === a.codeChangeId)!.tasks).toContain(a.task);
  });

  test("annotators' orders differ (each has their own shuffle)", () => {
    const order = (u: string) => plan.filter((a) => a.annotatorId === u && a.task === "REVIEW_RATING" && a.inReliabilitySet).map((a) => a.codeChangeId);
    expect(order("u1")).not.toEqual(order("u2"));
  });

  test("edge cases: more annotators per item than annotators, oversized reliability set, no annotators, bad settings", () => {
    const few = planAssignments({ ...input, annotatorIds: ["u1"], annotatorsPerItem: 3 });
    expect(new Set(few.map((a) => a.codeChangeId)).size).toBe(items.length);
    const everything = planAssignments({ ...input, reliabilitySetSize: 1000 });
    expect(everything.every((a) => a.inReliabilitySet)).toBe(true);
    expect(planAssignments({ ...input, annotatorIds: [] })).toEqual([]);
    expect(() => planAssignments({ ...input, annotatorsPerItem: 0 })).toThrow(PlanError);
    expect(() => planAssignments({ ...input, reliabilitySetSize: -1 })).toThrow(PlanError);
  });
});

describe("applicable task types", () => {
  test("from what an item has", () => {
    expect(applicableTasks(ALL, { generatedClaims: 3, reviews: 5, generatedReviews: 4, hasReference: true, pullRequestComments: 0 })).toEqual(ALL);
    expect(applicableTasks(ALL, { generatedClaims: 0, reviews: 5, generatedReviews: 5, hasReference: false, pullRequestComments: 0 })).toEqual(["REVIEW_RATING", "COMMENT_FILTERING"]);
    expect(applicableTasks(["CLAIM_VERIFICATION"], { generatedClaims: 0, reviews: 1, generatedReviews: 1, hasReference: true, pullRequestComments: 0 })).toEqual([]);
    // A pull request's comments count on its first file only, where its one assignment of comment questions is stored.
    expect(applicableTasks([...ALL, "COMMENT_QUESTIONS"], { generatedClaims: 0, reviews: 0, generatedReviews: 0, hasReference: false, pullRequestComments: 4 })).toEqual(["COMMENT_QUESTIONS"]);
    expect(applicableTasks(["COMMENT_QUESTIONS"], { generatedClaims: 0, reviews: 0, generatedReviews: 0, hasReference: false, pullRequestComments: 0 })).toEqual([]);
  });
});

describe("planEffect", () => {
  const planned = (annotatorId: string, codeChangeId: string, position: number, inReliabilitySet = false) => ({ annotatorId, codeChangeId, task: "REFERENCE_GRADING" as const, position, inReliabilitySet });
  const stored = (id: string, status: string, p: ReturnType<typeof planned>) => ({ id, status, ...p });

  test("creates what is new, moves what changed place, removes unopened work the plan drops and keeps started work", () => {
    const existing = [stored("same", "DONE", planned("a", "c1", 0)), stored("moved", "PENDING", planned("a", "c2", 5)), stored("dropped", "PENDING", planned("a", "c9", 2)), stored("started", "IN_PROGRESS", planned("b", "c9", 0))];
    const plan = [planned("a", "c1", 0), planned("a", "c2", 1), planned("a", "c3", 2), planned("b", "c1", 0, true)];
    const effect = planEffect(existing, plan);
    expect(effect.create).toEqual([planned("a", "c3", 2), planned("b", "c1", 0, true)]);
    expect(effect.update).toEqual([{ id: "moved", position: 1, inReliabilitySet: false }]);
    expect(effect.remove).toEqual(["dropped"]);
    expect(effect.keep.map((a) => a.id)).toEqual(["started"]);
    expect(planEffect(plan.map((p, i) => stored(`s${i}`, "PENDING", p)), plan)).toEqual({ create: [], update: [], remove: [], keep: [] });
  });
});
