import { describe, expect, test } from "vitest";
import { decide } from "@/lib/import/plan";

describe("decide: comparing a file's values with stored ones", () => {
  test("equal values are unchanged; unstated values never conflict", () => {
    expect(decide({ grade: 3, comment: "ok" }, { grade: 3, comment: null })).toEqual({ changes: {}, conflicts: [] });
    expect(decide({ metadata: { a: 1, b: 2 } }, { metadata: { b: 2, a: 1 } })).toEqual({ changes: {}, conflicts: [] });
  });

  test("empty stored values are filled in without a conflict", () => {
    expect(decide({ necessary: null, note: "", oldFile: "" }, { necessary: false, note: "x", oldFile: "def f(): pass" })).toEqual({
      changes: { necessary: false, note: "x", oldFile: "def f(): pass" },
      conflicts: [],
    });
  });

  test("different stated values conflict (0 and false are values, not blanks)", () => {
    expect(decide({ grade: 1, highQuality: true }, { grade: 3, highQuality: false })).toEqual({
      changes: { grade: 3, highQuality: false },
      conflicts: [
        { field: "grade", stored: 1, incoming: 3 },
        { field: "highQuality", stored: true, incoming: false },
      ],
    });
  });

  test("texts that differ only in whitespace are the same", () => {
    expect(decide({ diff: "a\n\t\tb" }, { diff: "a\n        b " })).toEqual({ changes: {}, conflicts: [] });
  });
});
