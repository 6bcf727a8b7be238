import { splitLines } from "./lines";
import type { DiffFile, DiffLine } from "./types";
import { AppError } from "@/lib/errors";

/** The line as it appears in the file, with its newline unless the diff says it has none. */
function fileLine(line: DiffLine): string {
  return line.noNewline ? line.text : `${line.text}\n`;
}

/**
 * Applies one parsed file diff to the old file's text and returns the new text. Throws when
 * a context or deleted line does not match the old text (the diff is not of this file).
 */
export function applyFileDiff(oldText: string, file: DiffFile): string {
  const oldLines = splitLines(oldText);
  const out: string[] = [];
  let cursor = 0;
  for (const hunk of file.hunks) {
    // An empty old range names the line after which the new lines go.
    const start = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    if (start < cursor || start > oldLines.length) throw new RangeError(`hunk at old line ${hunk.oldStart} is out of order or beyond the file`);
    out.push(...oldLines.slice(cursor, start));
    cursor = start;
    for (const line of hunk.lines) {
      const text = fileLine(line);
      if (line.kind !== "add") {
        if (oldLines[cursor] !== text) throw new AppError("INVALID_INPUT", { message: `old line ${cursor + 1} does not match the diff: expected ${JSON.stringify(text)}, found ${JSON.stringify(oldLines[cursor] ?? null)}` });
        cursor++;
      }
      if (line.kind !== "del") out.push(text);
    }
  }
  out.push(...oldLines.slice(cursor));
  return out.join("");
}
