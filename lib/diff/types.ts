/** Structured form of a unified diff, as produced by `parseUnifiedDiff`. */

export type DiffLineKind = "context" | "add" | "del";

export interface DiffLine {
  kind: DiffLineKind;
  /** The line without its leading marker and without the newline. */
  text: string;
  /** 1-based line number in the old file; null for added lines. */
  oldLine: number | null;
  /** 1-based line number in the new file; null for deleted lines. */
  newLine: number | null;
  /** Followed by "\ No newline at end of file": the file ends with this line and no newline. */
  noNewline: boolean;
}

export interface DiffHunk {
  /** As in the header `@@ -oldStart,oldLines +newStart,newLines @@`; a missing count is 1. */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Text after the closing `@@` (git's function context), trimmed; "" when absent. */
  section: string;
  lines: DiffLine[];
}

export interface DiffFile {
  /**
   * Paths without git's `a/` and `b/` prefixes. null means the file does not exist on that
   * side (`/dev/null`, a new or deleted file); "" means the diff names no file (a bare hunk).
   */
  oldPath: string | null;
  newPath: string | null;
  hunks: DiffHunk[];
}
