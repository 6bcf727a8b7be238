/**
 * The diff view's chunks of lines (toBlocks): the lines of a comment's range carry the range's
 * key, by which the focused range is marked in place, so the chunks never depend on the focused
 * comment and moving the focus re-renders none of them.
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

/** Three comments' ranges on the new side: lines 50-54, 53-55 (overlapping the first) and 120-121. */
const ranges = [
  [50, 54],
  [53, 55],
  [120, 121],
] as const;
const mark: LineMark = (line, side) => {
  const n = side === "right" ? line.newNo : null;
  return n === null ? [] : ranges.flatMap(([from, to], i) => (n >= from && n <= to ? [`t${i}`] : []));
};

describe("the diff view's chunks of lines", () => {
  for (const mode of ["unified", "split"] as const) {
    const rows = mode === "unified" ? unifiedRows(file, {}) : splitRows(file, {});
    const html = toBlocks(rows, mode, mark)
      .flatMap((b) => (b.type === "lines" ? [b.html] : []))
      .join("");
    const keysOf = (key: string) => html.match(new RegExp(`data-cm="[^"]*\\b${key}\\b[^"]*"`, "g")) ?? [];

    test(`${mode}: each line of a range is marked once and carries the keys of the ranges it is in`, () => {
      expect(html.match(/dv-cm/g)).toHaveLength(8);
      expect(keysOf("t0")).toHaveLength(5);
      expect(keysOf("t1")).toHaveLength(3);
      expect(keysOf("t2")).toHaveLength(2);
      expect(html.match(/data-cm="t0 t1"/g)).toHaveLength(2);
      expect(html).not.toContain("dv-cf");
    });

    test(`${mode}: chunks hold at most 40 lines, every line once`, () => {
      const lines = toBlocks(rows, mode, mark).flatMap((b) => (b.type === "lines" ? [b] : []));
      expect(lines.reduce((n, b) => n + b.count, 0)).toBe(rows.filter((r) => r.type === "line" || r.type === "pair").length);
      expect(Math.max(...lines.map((b) => b.count))).toBeLessThanOrEqual(40);
    });
  }
});
