import { describe, expect, test } from "vitest";
import { claimVerdict } from "@/lib/claims";

const j = (annotatorId: string, code: string | null, primary = false) => ({ annotatorId, code, primary });

describe("Table 1 verdict policy (lib/claims/verdict.ts)", () => {
  test("the lead's consensus wins over every judgement", () => {
    expect(claimVerdict({ consensus: "INCORRECT", judgements: [j("a", "CORRECT", true), j("b", "CORRECT")], firstAssigned: "a" })).toEqual({ code: "INCORRECT", source: "consensus" });
  });

  test("else the judgement an import declared primary, else the first assigned annotator's", () => {
    expect(claimVerdict({ consensus: null, judgements: [j("a", "CORRECT"), j("b", "UNVERIFIABLE", true)], firstAssigned: "a" })).toEqual({ code: "UNVERIFIABLE", source: "primary" });
    expect(claimVerdict({ consensus: null, judgements: [j("a", "CORRECT"), j("b", "UNVERIFIABLE")], firstAssigned: "b" })).toEqual({ code: "UNVERIFIABLE", source: "first-assigned" });
  });

  test("else the only coded judgement; several without a primary are unresolved, none unlabelled", () => {
    expect(claimVerdict({ consensus: null, judgements: [j("a", null), j("b", "INCORRECT")], firstAssigned: "a" })).toEqual({ code: "INCORRECT", source: "only" });
    expect(claimVerdict({ consensus: null, judgements: [j("a", "CORRECT"), j("b", "INCORRECT")], firstAssigned: null })).toEqual({ code: null, source: "unresolved" });
    expect(claimVerdict({ consensus: null, judgements: [j("a", "CORRECT", true), j("b", "INCORRECT", true)], firstAssigned: "a" })).toEqual({ code: null, source: "unresolved" });
    expect(claimVerdict({ consensus: null, judgements: [j("a", null)], firstAssigned: "a" })).toEqual({ code: null, source: "unlabelled" });
  });

  test("the order judgements come in (saved, imported) does not change the verdict", () => {
    const judgements = [j("a", "CORRECT"), j("b", "INCORRECT", true), j("c", "UNVERIFIABLE")];
    const verdicts = [judgements, [...judgements].reverse(), [judgements[1], judgements[2], judgements[0]]].map((list) => claimVerdict({ consensus: null, judgements: list, firstAssigned: "c" }));
    expect(new Set(verdicts.map((v) => v.code))).toEqual(new Set(["INCORRECT"]));
  });
});
