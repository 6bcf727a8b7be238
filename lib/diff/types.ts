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

/** A stored code change as the diff view shows it (components/diff-view): its diff and, when known, its old and new file. */
export interface DiffSource {
  key: string;
  /** Path shown in the file list when the diff does not name one. */
  path: string;
  language: string;
  diff: string;
  oldFile?: string;
  newFile?: string;
  /** The file under annotation (others are context, e.g. the rest of a pull request). */
  primary?: boolean;
}
