import { describe, expect, test } from "vitest";
import { claimMatchKey, claimNormalizations } from "@/lib/import/text";

describe("claims matched by normalized text", () => {
  test("trailing punctuation, list numbering and whitespace are ignored, and named", () => {
    expect(claimNormalizations("v is set to 3.", "v is set to 3")).toEqual(["trailing punctuation"]);
    expect(claimNormalizations("1. v is an int.", "v  is an int.")).toEqual(["whitespace", "list numbering"]);
    expect(claimNormalizations("- a is removed;", "a is removed")).toEqual(["list numbering", "trailing punctuation"]);
    expect(claimNormalizations("same", "same")).toEqual([]);
  });

  test("different claims stay different", () => {
    expect(claimNormalizations("v is set to 3.", "v is set to 4.")).toBeNull();
    expect(claimNormalizations("2 parameters are added", "parameters are added")).toBeNull();
    expect(claimMatchKey("3.")).toBe("3");
  });
});
