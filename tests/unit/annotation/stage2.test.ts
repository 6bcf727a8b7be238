import { describe, expect, test } from "vitest";
import { stage2FromConsolidation, stage2FromOwnJudgements, suggestConsolidation, type JudgementInput, type ReferenceInput } from "@/lib/annotation/stage2";

const ref = (id: string, kind: ReferenceInput["kind"], position: number, extra: Partial<ReferenceInput> = {}): ReferenceInput => ({
  id,
  kind,
  text: `text ${id}`,
  source: kind === "SMELL" ? "pylint" : "model",
  position,
  addedById: null,
  correctsId: null,
  ...extra,
});

const references: ReferenceInput[] = [
  ref("c1", "CLAIM", 1),
  ref("c2", "CLAIM", 2),
  ref("c3", "IMPLICATION", 3),
  ref("c4", "CLAIM", 4),
  ref("c5", "CLAIM", 5),
  ref("c6", "CLAIM", 6),
  ref("c7", "CLAIM", 7),
  ref("s1", "SMELL", 8),
  ref("a1", "ANNOTATOR_ADDED", 9, { addedById: "ann1", text: "missing claim by ann1" }),
  ref("a2", "ANNOTATOR_ADDED", 10, { addedById: "ann1", correctsId: "c2", text: "corrected c2" }),
  ref("b1", "ANNOTATOR_ADDED", 11, { addedById: "ann2", text: "missing claim by ann2" }),
];

const j = (code: JudgementInput["code"], necessary: boolean | null = null): JudgementInput => ({ code, necessary });

describe("stage-2 pseudo-references from one annotator's stage 1 (CRScore Figure 7)", () => {
  const judgements = new Map<string, JudgementInput>([
    ["c1", j("CORRECT")],
    ["c2", j("INCORRECT")],
    ["c3", j("UNVERIFIABLE")],
    ["c4", j("INCOMPLETE")],
    ["c5", j("AMBIGUOUS")],
    ["c6", j("CORRECT", false)],
  ]);
  const set = stage2FromOwnJudgements(references, judgements, "ann1");

  test("correct and ambiguous claims stay; incorrect, unverifiable, incomplete and unnecessary ones go", () => {
    const ids = set.map((r) => r.id);
    expect(ids).toContain("c1");
    expect(ids).toContain("c5");
    for (const gone of ["c2", "c3", "c4", "c6"]) expect(ids).not.toContain(gone);
  });

  test("an unjudged claim stays (nothing says it is wrong)", () => {
    expect(set.find((r) => r.id === "c7")?.origin).toBe("claim");
  });

  test("the annotator's correction replaces the claim it corrects, in its place", () => {
    const replaced = set.find((r) => r.id === "a2");
    expect(replaced).toMatchObject({ origin: "replaced", text: "corrected c2", replacedText: "text c2" });
    expect(set.findIndex((r) => r.id === "a2")).toBe(1);
  });

  test("smells and the annotator's own added claims are included, other annotators' are not", () => {
    expect(set.find((r) => r.id === "s1")?.origin).toBe("smell");
    expect(set.at(-1)).toMatchObject({ id: "a1", origin: "added" });
    expect(set.some((r) => r.id === "b1")).toBe(false);
  });

  test("the whole set, in order", () => {
    expect(set.map((r) => r.id)).toEqual(["c1", "a2", "c5", "c7", "s1", "a1"]);
  });

  test("without any judgement: every generated claim and smell, no added claims of others", () => {
    expect(stage2FromOwnJudgements(references, new Map(), "ann3").map((r) => r.id)).toEqual(["c1", "c2", "c3", "c4", "c5", "c6", "c7", "s1"]);
  });
});

describe("stage-2 pseudo-references from a lead's consolidation", () => {
  test("keep, replace and drop; undecided claims and smells stay, undecided added claims do not", () => {
    const decisions = new Map([
      ["c1", { action: "KEEP" as const, replacementText: null }],
      ["c2", { action: "REPLACE" as const, replacementText: "  lead's wording  " }],
      ["c3", { action: "DROP" as const, replacementText: null }],
      ["a1", { action: "KEEP" as const, replacementText: null }],
      ["a2", { action: "DROP" as const, replacementText: null }],
      ["b1", { action: "REPLACE" as const, replacementText: "better b1" }],
    ]);
    const set = stage2FromConsolidation(references, decisions);
    expect(set.map((r) => r.id)).toEqual(["c1", "c2", "c4", "c5", "c6", "c7", "s1", "a1", "b1"]);
    expect(set.find((r) => r.id === "c2")).toMatchObject({ origin: "replaced", text: "lead's wording", replacedText: "text c2" });
    expect(set.find((r) => r.id === "b1")?.text).toBe("better b1");
  });

  test("a smell can be dropped explicitly", () => {
    const set = stage2FromConsolidation(references, new Map([["s1", { action: "DROP" as const, replacementText: null }]]));
    expect(set.some((r) => r.id === "s1")).toBe(false);
  });
});

describe("consolidation suggestions", () => {
  const annotators = [
    { annotatorId: "ann1", judgements: new Map<string, JudgementInput>([["c1", j("CORRECT")], ["c2", j("INCORRECT")], ["c3", j("INCORRECT")], ["c6", j("CORRECT", false)]]) },
    { annotatorId: "ann2", judgements: new Map<string, JudgementInput>([["c1", j("CORRECT")], ["c2", j("UNVERIFIABLE")], ["c3", j("CORRECT")], ["c4", j("INCOMPLETE")], ["c6", j("CORRECT", false)]]) },
  ];
  const s = suggestConsolidation(references, annotators);

  test("agreement to keep, rejected claims replaced by a correction or dropped, a claim nobody coded kept and saying why", () => {
    expect(s.get("c1")).toMatchObject({ action: "KEEP", agreement: "agree", reason: "2 kept, 0 rejected" });
    expect(s.get("c2")).toMatchObject({ action: "REPLACE", replacementText: "corrected c2", agreement: "same-vote" });
    expect(s.get("c4")).toMatchObject({ action: "DROP", agreement: "single" });
    expect(s.get("c6")).toMatchObject({ action: "DROP", agreement: "agree", reason: "0 kept, 2 rejected (2 of 2 marked it unnecessary)" });
    expect(s.get("c7")).toMatchObject({ action: "KEEP", agreement: "none", reason: expect.stringMatching(/^no annotator coded it: kept, as Figure 7 removes only/) });
  });

  test("a 1-1 tie has no default: it is marked and the lead chooses", () => {
    expect(s.get("c3")).toEqual({ action: null, replacementText: null, agreement: "tie", reason: "tie: 1 kept, 1 rejected; choose keep, replace or drop" });
  });

  test("a majority against a dissenter is a disagreement with a default", () => {
    const three = [...annotators, { annotatorId: "ann3", judgements: new Map<string, JudgementInput>([["c3", j("CORRECT")]]) }];
    expect(suggestConsolidation(references, three).get("c3")).toMatchObject({ action: "KEEP", agreement: "disagree", reason: "2 kept, 1 rejected" });
    // an annotator who found it correct but unnecessary votes to drop it (Figure 7 excludes unnecessary claims)
    const unnecessary = [annotators[0], { annotatorId: "ann2", judgements: new Map<string, JudgementInput>([["c1", j("CORRECT", false)]]) }];
    expect(suggestConsolidation(references, unnecessary).get("c1")).toMatchObject({ action: null, agreement: "tie", reason: "tie: 1 kept, 1 rejected (1 of 2 marked it unnecessary); choose keep, replace or drop" });
  });

  test("added claims kept, corrections folded into their claim, smells not decided", () => {
    expect(s.get("a1")?.action).toBe("KEEP");
    expect(s.get("a2")?.action).toBe("DROP");
    expect(s.has("s1")).toBe(false);
  });
});
