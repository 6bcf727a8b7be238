/**
 * The diff view's chunks of lines (toBlocks): a comment's range is a chunk of its own, and the
 * chunks do not change with the focused comment, so moving the focus re-renders only the lines
 * of the ranges it leaves and enters.
 */
import { describe, expect, test } from "vitest";
import { toBlocks, type LineMark } from "@/components/diff-view/diff-view";
import { buildFileModels, splitRows, unifiedRows } from "@/components/diff-view/model";
import { unifiedDiff } from "@/lib/diff";

const oldLines = Array.from({ length: 300 }, (_, i) => `value_${i + 1} = ${i + 1}`);
const newLines = oldLines.map((line, i) => (i % 3 === 0 ? `${line} + 1` : line));
const oldFile = oldLines.join("\n") + "\n";
const newFile = newLines.join("\n") + "\n";
const [file] = buildFileModels({ key: "c1", path: "a.py", language: "python", diff: unifiedDiff(oldFile, newFile, { path: "a.py" }), oldFile, newFile });

/** Two comments' ranges on the new side: lines 50-54 and 120-121; `focused` is one of them or none. */
const ranges = [
  [50, 54],
  [120, 121],
] as const;
const markOf =
  (focused: number | null): LineMark =>
  (line, side) => {
    const n = side === "right" ? line.newNo : null;
    if (n === null) return "";
    const at = ranges.findIndex(([from, to]) => n >= from && n <= to);
    return at < 0 ? "" : at === focused ? "dv-cf" : "dv-cm";
  };

const shape = (blocks: ReturnType<typeof toBlocks>) => blocks.map((b) => (b.type === "lines" ? `lines ${b.count}` : b.type));

describe("the diff view's chunks of lines", () => {
  for (const mode of ["unified", "split"] as const) {
    const rows = mode === "unified" ? unifiedRows(file, {}) : splitRows(file, {});

    const marks = (b: ReturnType<typeof toBlocks>[number]) => (b.type === "lines" ? (b.html.match(/dv-c[mf]/g) ?? []).length : 0);

    test(`${mode}: a comment's range is in chunks of its own lines (a deleted line between them, not in the range, ends one)`, () => {
      const blocks = toBlocks(rows, mode, markOf(null));
      const lines = blocks.flatMap((b) => (b.type === "lines" ? [b] : []));
      // Every marked chunk holds marked lines only (one mark per line), every other chunk none; the 7 lines of the ranges are all marked.
      expect(lines.filter((b) => marks(b) > 0).every((b) => marks(b) === b.count)).toBe(true);
      expect(lines.reduce((n, b) => n + marks(b), 0)).toBe(7);
      expect(lines.reduce((n, b) => n + b.count, 0)).toBe(rows.filter((r) => r.type === "line" || r.type === "pair").length);
      expect(Math.max(...lines.map((b) => b.count))).toBeLessThanOrEqual(40);
    });

    test(`${mode}: moving the focus from one comment to the other changes only the two ranges' chunks`, () => {
      const first = toBlocks(rows, mode, markOf(0));
      const second = toBlocks(rows, mode, markOf(1));
      expect(shape(second)).toEqual(shape(first));
      expect(shape(toBlocks(rows, mode, markOf(null)))).toEqual(shape(first));
      const changed = first.flatMap((b, i) => (b.type === "lines" && b.html !== (second[i] as typeof b).html ? [b] : []));
      expect(changed.length).toBeGreaterThanOrEqual(2);
      expect(changed.every((b) => marks(b) === (b.type === "lines" && b.count))).toBe(true);
      expect(changed.reduce((n, b) => n + marks(b), 0)).toBe(7);
    });
  }
});
