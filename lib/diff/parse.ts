/**
 * Parser of unified diffs: `git diff` output with several files (`diff --git`, extended
 * headers, `---`/`+++`), GNU `diff -u` output (timestamps after the paths), and bare hunks
 * without any file header (as stored in code review datasets). Hunk bodies are delimited by
 * the counts in their headers, so a deleted line reading "-- x" is never taken for a header.
 */
import type { DiffFile, DiffHunk, DiffLine } from "./types";

export class DiffParseError extends Error {
  constructor(lineNumber: number, message: string) {
    super(`diff line ${lineNumber}: ${message}`);
    this.name = "DiffParseError";
  }
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;
const GIT_HEADER = /^diff --git a\/(.+) b\/(.+)$/;

/** Path of a `---`/`+++` line: without a trailing timestamp, git's a/ or b/ prefix; null for /dev/null. */
function headerPath(value: string, prefix: "a/" | "b/"): string | null {
  const path = value.split("\t")[0].trimEnd();
  if (path === "/dev/null") return null;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** Line numbers still expected by the hunk being read. */
interface OpenHunk {
  hunk: DiffHunk;
  oldLine: number;
  newLine: number;
  oldLeft: number;
  newLeft: number;
  /** Number of the diff line that last belonged to the hunk (header, body or marker). */
  lastLine: number;
}

function openHunk(header: string, lineNumber: number): OpenHunk {
  const match = HUNK_HEADER.exec(header);
  if (!match) throw new DiffParseError(lineNumber, `malformed hunk header "${header}"`);
  const [, oldStart, oldLines = "1", newStart, newLines = "1", section] = match;
  const hunk: DiffHunk = {
    oldStart: Number(oldStart),
    oldLines: Number(oldLines),
    newStart: Number(newStart),
    newLines: Number(newLines),
    section: section.trim(),
    lines: [],
  };
  return { hunk, oldLine: hunk.oldStart, newLine: hunk.newStart, oldLeft: hunk.oldLines, newLeft: hunk.newLines, lastLine: lineNumber };
}

/** Adds one body line (" x", "-x", "+x"; an empty line is blank context) to the open hunk. */
function readBodyLine(open: OpenHunk, line: string, lineNumber: number): void {
  const marker = line === "" ? " " : line[0];
  const text = line.slice(1);
  const takesOld = marker === " " || marker === "-";
  const takesNew = marker === " " || marker === "+";
  if (!takesOld && !takesNew) throw new DiffParseError(lineNumber, `expected a hunk line starting with " ", "-" or "+", got "${line}"`);
  if ((takesOld && open.oldLeft === 0) || (takesNew && open.newLeft === 0)) {
    throw new DiffParseError(lineNumber, `hunk has more lines than its header -${open.hunk.oldStart},${open.hunk.oldLines} +${open.hunk.newStart},${open.hunk.newLines} declares`);
  }
  const parsed: DiffLine = {
    kind: marker === " " ? "context" : marker === "-" ? "del" : "add",
    text,
    oldLine: takesOld ? open.oldLine++ : null,
    newLine: takesNew ? open.newLine++ : null,
    noNewline: false,
  };
  if (takesOld) open.oldLeft--;
  if (takesNew) open.newLeft--;
  open.hunk.lines.push(parsed);
  open.lastLine = lineNumber;
}

function isComplete(open: OpenHunk): boolean {
  return open.oldLeft === 0 && open.newLeft === 0;
}

function assertComplete(open: OpenHunk | null, lineNumber: number): void {
  if (!open || isComplete(open)) return;
  const { hunk, oldLeft, newLeft } = open;
  throw new DiffParseError(lineNumber, `hunk -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} is missing ${oldLeft} old and ${newLeft} new lines`);
}

/** Reads the lines of a diff in order; `files` holds the result. */
class DiffReader {
  readonly files: DiffFile[] = [];
  private file: DiffFile | null = null;
  /** Whether the current file got its `---`/`+++` pair (a second pair starts a new file). */
  private hasFileHeader = false;
  private open: OpenHunk | null = null;

  read(lines: readonly string[]): void {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const lineNumber = i + 1;
      const open = this.open;
      if (line.startsWith("\\")) this.markNoNewline(line, lineNumber);
      else if (open && !isComplete(open)) readBodyLine(open, line, lineNumber);
      else if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) this.readFileHeader(line, lines[++i]);
      else this.readOutsideHunk(line, lineNumber);
    }
    assertComplete(this.open, lines.length);
  }

  private startFile(oldPath: string | null, newPath: string | null): DiffFile {
    const file: DiffFile = { oldPath, newPath, hunks: [] };
    this.files.push(file);
    this.file = file;
    this.hasFileHeader = false;
    this.open = null;
    return file;
  }

  private markNoNewline(line: string, lineNumber: number): void {
    const last = this.open?.hunk.lines.at(-1);
    if (!this.open || !last) throw new DiffParseError(lineNumber, `"${line}" does not follow a hunk line`);
    last.noNewline = true;
    this.open.lastLine = lineNumber;
  }

  /** `---`/`+++`: completes the file a `diff --git` line started, or starts a new one. */
  private readFileHeader(oldLine: string, newLine: string): void {
    const file = this.file && !this.hasFileHeader && this.file.hunks.length === 0 ? this.file : this.startFile("", "");
    file.oldPath = headerPath(oldLine.slice(4), "a/");
    file.newPath = headerPath(newLine.slice(4), "b/");
    this.hasFileHeader = true;
  }

  private readOutsideHunk(line: string, lineNumber: number): void {
    const git = GIT_HEADER.exec(line);
    if (git) {
      this.startFile(git[1], git[2]);
    } else if (line.startsWith("@@")) {
      const open = openHunk(line, lineNumber);
      (this.file ?? this.startFile("", "")).hunks.push(open.hunk);
      this.open = open;
    } else if (/^[-+ ]/.test(line) && this.open?.lastLine === lineNumber - 1) {
      throw new DiffParseError(lineNumber, `"${line}" follows a complete hunk (do the hunk header counts match?)`);
    } else if (this.file?.hunks.length === 0) {
      readExtendedHeader(this.file, line);
    }
    // Anything else (commit messages, "index ...", "Binary files ... differ") carries no diff lines.
  }
}

/** Parses every file of a unified diff into hunks and numbered lines. */
export function parseUnifiedDiff(diff: string): DiffFile[] {
  const lines = diff.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const reader = new DiffReader();
  reader.read(lines);
  return reader.files;
}

/** git's extended headers that name the files: renames, and creations or deletions without hunks. */
function readExtendedHeader(file: DiffFile, line: string): void {
  if (line.startsWith("rename from ")) file.oldPath = line.slice("rename from ".length);
  else if (line.startsWith("rename to ")) file.newPath = line.slice("rename to ".length);
  else if (line.startsWith("new file mode ")) file.oldPath = null;
  else if (line.startsWith("deleted file mode ")) file.newPath = null;
}
