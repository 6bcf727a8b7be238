import { describe, expect, test } from "vitest";
import { canonicalize, sameValue } from "@/lib/annotation/values";
import { saveRequest } from "@/lib/annotation/value-schemas";
import { decideSave } from "@/lib/annotation/versioning";

describe("optimistic concurrency decisions", () => {
  type V = { code: string; necessary: boolean | null; errorType: string | null; note: string };
  const stored: { version: number; value: V } = { version: 3, value: { code: "CORRECT", necessary: null, errorType: null, note: "" } };
  const other: V = { code: "INCORRECT", necessary: null, errorType: "REASONING", note: "x" };

  test("create only from version 0", () => {
    expect(decideSave(null, 0, other)).toEqual({ type: "create" });
    expect(decideSave(null, 2, other).type).toBe("conflict");
  });

  test("update only from the stored version", () => {
    expect(decideSave(stored, 3, other)).toEqual({ type: "update" });
    const stale = decideSave(stored, 2, other);
    expect(stale.type).toBe("conflict");
    expect(stale.type === "conflict" && stale.reason).toMatch(/version 2.*version 3/);
    expect(decideSave(stored, 0, other).type).toBe("conflict");
  });

  test("saving the stored value again is a no-op whatever the base (a retried request)", () => {
    expect(decideSave(stored, 2, { ...stored.value })).toEqual({ type: "noop" });
    expect(decideSave(stored, 3, { note: "", errorType: null, necessary: null, code: "CORRECT" })).toEqual({ type: "noop" });
  });
});

describe("value canonical form", () => {
  test("key order and link order do not matter; undefined keys are dropped", () => {
    const a = { scores: { relevance: 3, conciseness: 4 }, links: [{ pseudoReferenceId: "b", partial: true }, { pseudoReferenceId: "a", partial: false }], comment: "" };
    const b = { comment: "", links: [{ partial: false, pseudoReferenceId: "a" }, { pseudoReferenceId: "b", partial: true }], scores: { conciseness: 4, relevance: 3 }, extra: undefined };
    expect(sameValue(a, b)).toBe(true);
    expect(sameValue(a, { ...b, comment: "x" })).toBe(false);
    expect(canonicalize([3, 1, 2])).toEqual([3, 1, 2]);
  });

  test("save requests are validated per kind", () => {
    expect(saveRequest.safeParse({ kind: "grade", assignmentId: "a", targetId: "r", baseVersion: 0, value: { grade: 6, comment: "" } }).success).toBe(false);
    expect(saveRequest.safeParse({ kind: "judgement", assignmentId: "a", targetId: "r", baseVersion: -1, value: { code: null, necessary: null, errorType: null, note: "" } }).success).toBe(false);
    expect(saveRequest.safeParse({ kind: "judgement", assignmentId: "a", targetId: "r", baseVersion: 0, value: { code: "WRONG", necessary: null, errorType: null, note: "" } }).success).toBe(false);
    expect(saveRequest.safeParse({ kind: "addedClaim", assignmentId: "a", targetId: "new:1", baseVersion: 0, value: { text: "   ", correctsId: null } }).success).toBe(false);
    expect(saveRequest.safeParse({ kind: "label", assignmentId: "a", targetId: "r", baseVersion: 0, value: { highQuality: true, justification: "ok" } }).success).toBe(true);
  });
});
