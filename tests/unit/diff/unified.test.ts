import { describe, expect, test } from "vitest";
import { diffLines, splitLines, unifiedDiff } from "@/lib/diff";
import { seededRandom } from "@/lib/stats/random";

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");
const header = "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n";

/** Length of the longest common subsequence by dynamic programming (the edit script is minimal iff it keeps this many lines). */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  let row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const next = [0];
    for (let j = 0; j < b.length; j++) next.push(x === b[j] ? row[j] + 1 : Math.max(row[j + 1], next[j]));
    row = next;
  }
  return row[b.length];
}

describe("unifiedDiff", () => {
  test("equal texts give no diff", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n", { path: "f.txt" })).toBe("");
    expect(unifiedDiff("", "", { path: "f.txt" })).toBe("");
  });

  test("one changed line with three lines of context (as git diff)", () => {
    const a = numbered(10);
    const b = a.replace("line 5\n", "line five\n");
    expect(unifiedDiff(a, b, { path: "f.txt" })).toBe(
      `${header}@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n`,
    );
  });

  test("changes at most 2 x context lines apart share a hunk, farther ones do not", () => {
    const a = numbered(30);
    const near = a.replace("line 5\n", "X\n").replace("line 12\n", "Y\n"); // 6 unchanged lines between
    const far = a.replace("line 5\n", "X\n").replace("line 13\n", "Y\n"); // 7 unchanged lines between
    expect(unifiedDiff(a, near, { path: "f.txt" }).match(/^@@.*$/gm)).toEqual(["@@ -2,14 +2,14 @@"]);
    expect(unifiedDiff(a, far, { path: "f.txt" }).match(/^@@.*$/gm)).toEqual(["@@ -2,7 +2,7 @@", "@@ -10,7 +10,7 @@"]);
  });

  test("hunk ranges: a count of 1 is omitted, an empty range names the line before", () => {
    const a = "a\nb\nc\n";
    expect(unifiedDiff(a, "a\nB\nc\n", { path: "f.txt", context: 0 })).toBe(`${header}@@ -2 +2 @@\n-b\n+B\n`);
    expect(unifiedDiff(a, "a\nb\nx\ny\nc\n", { path: "f.txt", context: 0 })).toBe(`${header}@@ -2,0 +3,2 @@\n+x\n+y\n`);
    expect(unifiedDiff("", "x\ny\n", { path: "f.txt" })).toBe(`${header}@@ -0,0 +1,2 @@\n+x\n+y\n`);
    expect(unifiedDiff("x\ny\n", "", { path: "f.txt" })).toBe(`${header}@@ -1,2 +0,0 @@\n-x\n-y\n`);
  });

  test("a last line without newline is marked and differs from the same text with one", () => {
    expect(unifiedDiff("a\nb", "a\nb\n", { path: "f.txt" })).toBe(`${header}@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n`);
    expect(unifiedDiff("a\nb\n", "a\nc", { path: "f.txt" })).toBe(`${header}@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n`);
    expect(unifiedDiff("x\na", "y\na", { path: "f.txt" })).toBe(`${header}@@ -1,2 +1,2 @@\n-x\n+y\n a\n\\ No newline at end of file\n`);
  });

  test("deletions come before insertions within a change", () => {
    expect(unifiedDiff("a\nb\n", "c\nd\n", { path: "f.txt" })).toBe(`${header}@@ -1,2 +1,2 @@\n-a\n-b\n+c\n+d\n`);
  });

  test("rejects a negative or fractional context", () => {
    expect(() => unifiedDiff("a", "b", { path: "f", context: -1 })).toThrow(RangeError);
    expect(() => unifiedDiff("a", "b", { path: "f", context: 1.5 })).toThrow(RangeError);
  });
});

describe("diffLines (Myers)", () => {
  test("keeps a longest common subsequence: minimal edit scripts on random inputs", () => {
    const random = seededRandom(20261122);
    for (let trial = 0; trial < 400; trial++) {
      const gen = () => Array.from({ length: Math.floor(random() * 25) }, () => "abcde"[Math.floor(random() * 5)]);
      const a = gen();
      const b = gen();
      const blocks = diffLines(a, b);
      const changed = blocks.reduce((sum, k) => sum + (k.oldEnd - k.oldStart) + (k.newEnd - k.newStart), 0);
      expect(changed).toBe(a.length + b.length - 2 * lcsLength(a, b));
      for (const [i, k] of blocks.entries()) {
        expect(k.oldEnd - k.oldStart + (k.newEnd - k.newStart)).toBeGreaterThan(0);
        if (i > 0) expect(k.oldStart).toBeGreaterThan(blocks[i - 1].oldEnd);
      }
    }
  });

  test("splitLines keeps newlines and a last line without one", () => {
    expect(splitLines("")).toEqual([]);
    expect(splitLines("a\n\nb")).toEqual(["a\n", "\n", "b"]);
    expect(splitLines("a\r\n")).toEqual(["a\r\n"]);
  });
});
