import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { annotatorKey, bundleAnnotators, type StudyBundle } from "@/lib/import/bundle";
import { ErrorCollector } from "@/lib/import/errors";
import { parseJsonl } from "@/lib/import/jsonl";
import { DEFAULT_LIKERT } from "@/lib/import/parser";
import { planBundle, planSlices, type Plan, type PlanOptions } from "@/lib/import/plan";
import type { Snapshot } from "@/lib/import/snapshot";
import { seededRandom } from "@/lib/stats";

const EXAMPLE = readFileSync("docs/examples/code-changes.jsonl", "utf8").trim().split("\n");

/** A bundle of `copies` renamed copies of the documented example's lines (pull requests, corrections, every annotation kind), in a seeded order. */
function bundleOf(copies: number, seed: number): StudyBundle {
  const random = seededRandom(seed);
  const lines = Array.from({ length: copies }, (_, copy) =>
    EXAMPLE.map((line) => {
      const json = JSON.parse(line) as { id: string; pullRequest?: { id: string } | null };
      json.id = `${json.id}-${copy}`;
      if (json.pullRequest) json.pullRequest.id = `${json.pullRequest.id}-${copy}`;
      return JSON.stringify(json);
    }),
  ).flat();
  for (let i = lines.length - 1; i > 0; i--) {
    const k = Math.floor(random() * (i + 1));
    [lines[i], lines[k]] = [lines[k], lines[i]];
  }
  const errors = new ErrorCollector();
  const { bundle } = parseJsonl({ name: "study.jsonl", content: Buffer.from(lines.join("\n")) }, { likert: DEFAULT_LIKERT }, errors) as { bundle: StudyBundle };
  expect(errors.errors).toEqual([]);
  return bundle;
}

const nothingStored = (): Snapshot => ({
  pullRequests: new Map(),
  codeChanges: new Map(),
  pseudoReferences: new Map(),
  pseudoReferencesByText: new Map(),
  reviews: new Map(),
  pseudoReferenceExternalId: new Map(),
  claimJudgements: new Map(),
  reviewRatings: new Map(),
  referenceGrades: new Map(),
  commentFilteringLabels: new Map(),
});

function optionsFor(bundle: StudyBundle): PlanOptions {
  const annotatorIdOf = new Map(bundleAnnotators(bundle).map((ref, i) => [annotatorKey(ref), `user-${i}`]));
  return { studyId: "study", annotators: { annotatorIdOf, names: [] }, update: false, now: new Date("2026-11-27T08:00:00Z"), provenance: { importRunId: "run", file: "study.jsonl" } };
}

/** A plan with the random part of its row ids left out (each plan draws its own; the counters follow the planning order). */
function withoutIdPrefix(plan: Plan): unknown {
  const prefix = String(plan.creates.codeChanges[0].id).slice(0, -8);
  return JSON.parse(JSON.stringify(plan).replaceAll(prefix, "id-"));
}

function slicesOf(bundle: StudyBundle, size: number): { slices: Plan["creates"][]; plan: Plan } {
  const generator = planSlices(bundle, nothingStored(), optionsFor(bundle), size);
  const slices: Plan["creates"][] = [];
  for (;;) {
    const next = generator.next();
    if (next.done) return { slices, plan: next.value };
    slices.push(next.value);
  }
}

describe("planSlices: the plan made a slice of code changes at a time", () => {
  test.each([
    [1, 1],
    [2, 3],
    [3, 7],
    [5, 20],
  ])("%i copies of the example in seeded orders, slices of 1 to all changes: the same plan as planBundle, and the slices are its rows in order", (copies, seed) => {
    const bundle = bundleOf(copies, seed);
    const whole = withoutIdPrefix(planBundle(bundle, nothingStored(), optionsFor(bundle)));
    const changes = bundle.codeChanges.length;
    for (const size of [1, 2, 3, changes - 1, changes, changes + 5].filter((s) => s > 0)) {
      const { slices, plan } = slicesOf(bundle, size);
      expect(withoutIdPrefix(plan)).toEqual(whole);
      expect(slices).toHaveLength(Math.ceil(changes / size));
      for (const table of Object.keys(plan.creates) as (keyof Plan["creates"])[]) {
        expect(slices.flatMap((slice): unknown[] => slice[table])).toEqual(plan.creates[table]);
      }
      // Every slice holds whole code changes: a row's parent is in its slice or an earlier one.
      const written = new Set<unknown>();
      for (const slice of slices) {
        slice.pullRequests.forEach((r) => written.add(r.id));
        slice.codeChanges.forEach((c) => written.add(c.id));
        for (const c of slice.codeChanges) expect(c.pullRequestId === null || written.has(c.pullRequestId)).toBe(true);
        slice.pseudoReferences.forEach((r) => written.add(r.id));
        for (const r of [...slice.pseudoReferences, ...slice.reviews]) expect(written.has(r.codeChangeId)).toBe(true);
        for (const r of slice.pseudoReferences) expect(r.correctsId == null || written.has(r.correctsId)).toBe(true);
      }
    }
  });

  test("a bundle without code changes still gives one (empty) slice", () => {
    const bundle: StudyBundle = { tasks: [], pullRequests: [], codeChanges: [] };
    const { slices, plan } = slicesOf(bundle, 100);
    expect(slices).toHaveLength(1);
    expect(Object.values(slices[0]).every((rows) => rows.length === 0)).toBe(true);
    expect(plan.counts.codeChanges).toEqual({ created: 0, updated: 0, unchanged: 0 });
  });
});
