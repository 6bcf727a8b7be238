import { expect, test } from "vitest";
import { claimNumbers, referenceLabels } from "@/lib/claims";

// docs/examples/code-changes.jsonl's py-retry-1 in stored order (position, then id): c1 at 1; c2 and
// grace's correction a1 at 2; i1 at 3; s1 at 4; with an added claim b1 of its own stored before i1.
const change = [
  { id: "c1", kind: "CLAIM", correctsId: null },
  { id: "a1", kind: "ANNOTATOR_ADDED", correctsId: "c2" },
  { id: "c2", kind: "CLAIM", correctsId: null },
  { id: "b1", kind: "ANNOTATOR_ADDED", correctsId: null },
  { id: "i1", kind: "IMPLICATION", correctsId: null },
  { id: "s1", kind: "SMELL", correctsId: null },
  { id: "s2", kind: "SMELL", correctsId: null },
];

test("generated claims are numbered as stage 1 lists them, added claims continue the count, whatever their stored positions", () => {
  expect([...claimNumbers(change)]).toEqual([
    ["c1", 1],
    ["c2", 2],
    ["i1", 3],
    ["b1", 4],
  ]);
});

test("every pseudo-reference has a name: corrections after the claim they correct, smells counted apart", () => {
  expect(referenceLabels(change)).toEqual(["claim 1", "correction of claim 2", "claim 2", "claim 4", "claim 3", "smell 1", "smell 2"]);
  expect(referenceLabels([{ id: "x", kind: "ANNOTATOR_ADDED", correctsId: "gone" }])).toEqual(["correction"]);
  expect(referenceLabels([])).toEqual([]);
});
