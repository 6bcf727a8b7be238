/**
 * Which findings are "on or near changed lines": a finding is kept when the lines it covers
 * (a statement, or a whole function for complexity) come within NEAR_LINES of a line the
 * change added or modified in the new file. A pure deletion counts at the new-file line where
 * the deleted lines were.
 */
import { parseUnifiedDiff } from "@/lib/diff";

/** Lines of slack around each changed line (CRScore's smells concern the changed code). */
export const NEAR_LINES = 3;

/** 1-based new-file line numbers the diff adds, or where it deletes lines. */
export function changedNewLines(diff: string): number[] {
  const lines = new Set<number>();
  for (const file of parseUnifiedDiff(diff)) {
    for (const hunk of file.hunks) {
      let next = hunk.newStart;
      for (const line of hunk.lines) {
        if (line.kind === "add" && line.newLine !== null) lines.add(line.newLine);
        else if (line.kind === "del") lines.add(Math.max(next, 1));
        if (line.newLine !== null) next = line.newLine + 1;
      }
    }
  }
  return [...lines].sort((a, b) => a - b);
}

/** Whether [line, endLine] comes within `near` lines of a changed line. */
export function nearChangedLine(span: { line: number; endLine: number }, changed: readonly number[], near = NEAR_LINES): boolean {
  return changed.some((c) => c >= span.line - near && c <= span.endLine + near);
}
