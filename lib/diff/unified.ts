/**
 * Unified diff output in the format of GNU `diff -u` and `git diff`: `---`/`+++` file
 * headers, hunks `@@ -l,s +l,s @@` with `context` unchanged lines around each change, hunks
 * merged when at most 2 x context unchanged lines separate them, and
 * "\ No newline at end of file" after a last line that has no newline.
 */
import { splitLines } from "./lines";
import { diffLines, type ChangeBlock } from "./myers";

export interface UnifiedDiffOptions {
  /** File path shown in the headers as `a/<path>` and `b/<path>`. */
  path: string;
  /** Unchanged lines shown around each change; 3 as in diff and git. */
  context?: number;
}

const NO_NEWLINE_MARKER = "\\ No newline at end of file";

/** `start,count` of a hunk range; a count of 1 is omitted and an empty range names the line before it. */
function formatRange(from: number, count: number): string {
  if (count === 1) return String(from + 1);
  return `${count === 0 ? from : from + 1},${count}`;
}

/** Groups change blocks whose separating unchanged run is short enough to share one hunk. */
function groupBlocks(blocks: ChangeBlock[], context: number): ChangeBlock[][] {
  const groups: ChangeBlock[][] = [];
  for (const block of blocks) {
    const last = groups.at(-1);
    const previous = last?.at(-1);
    if (last && previous && block.oldStart - previous.oldEnd <= 2 * context) last.push(block);
    else groups.push([block]);
  }
  return groups;
}

/** One output line: marker, text without its newline, and the marker line when it had none. */
function formatLine(marker: " " | "-" | "+", line: string): string {
  return line.endsWith("\n") ? `${marker}${line}` : `${marker}${line}\n${NO_NEWLINE_MARKER}\n`;
}

function formatHunk(oldLines: readonly string[], newLines: readonly string[], group: ChangeBlock[], context: number): string {
  const first = group[0];
  const last = group[group.length - 1];
  const oldFrom = Math.max(0, first.oldStart - context);
  const oldTo = Math.min(oldLines.length, last.oldEnd + context);
  const newFrom = first.newStart - (first.oldStart - oldFrom);
  const newTo = last.newEnd + (oldTo - last.oldEnd);
  const out = [`@@ -${formatRange(oldFrom, oldTo - oldFrom)} +${formatRange(newFrom, newTo - newFrom)} @@\n`];
  let cursor = oldFrom;
  for (const block of group) {
    for (; cursor < block.oldStart; cursor++) out.push(formatLine(" ", oldLines[cursor]));
    for (let i = block.oldStart; i < block.oldEnd; i++) out.push(formatLine("-", oldLines[i]));
    for (let i = block.newStart; i < block.newEnd; i++) out.push(formatLine("+", newLines[i]));
    cursor = block.oldEnd;
  }
  for (; cursor < oldTo; cursor++) out.push(formatLine(" ", oldLines[cursor]));
  return out.join("");
}

/**
 * The unified diff turning `oldText` into `newText` (`diff --git` and `---`/`+++` headers,
 * then the hunks); "" when the texts are equal.
 */
export function unifiedDiff(oldText: string, newText: string, { path, context = 3 }: UnifiedDiffOptions): string {
  if (!Number.isInteger(context) || context < 0) throw new RangeError(`context must be a non-negative integer, got ${context}`);
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  const blocks = diffLines(oldLines, newLines);
  if (blocks.length === 0) return "";
  const header = `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n`;
  return header + groupBlocks(blocks, context).map((group) => formatHunk(oldLines, newLines, group, context)).join("");
}
