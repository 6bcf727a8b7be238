/**
 * From a stored code change (unified diff, old and new file) to what the diff view renders:
 * files, hunks with highlighted lines, and the hidden stretches between hunks that can be
 * expanded from the old/new file contents. Pure functions, shared by the server render, the
 * client and the unit tests.
 */
import { parseUnifiedDiff, type DiffLineKind, type DiffSource } from "@/lib/diff";
import { highlightLines, languageOf } from "./highlight";

export interface LineRow {
  kind: DiffLineKind;
  oldNo: number | null;
  newNo: number | null;
  html: string;
}

export type Segment = { type: "hunk"; header: string; rows: LineRow[] } | { type: "gap"; id: string; oldStart: number; newStart: number; count: number };

export interface FileModel {
  key: string;
  path: string;
  primary: boolean;
  additions: number;
  deletions: number;
  segments: Segment[];
  /** Highlighted new-file lines, for expanded context; null when the file contents are unknown or do not match the diff. */
  contextHtml: string[] | null;
  /** Some lines are escaped but not highlighted yet (built for the first screen only). */
  partial: boolean;
  error?: string;
}

/**
 * How far into a file the first screen's highlighting reaches: highlighting starts at the file's
 * first line (block comments and strings span lines), so a first hunk deeper than this is shown
 * plain until the whole file is highlighted; files up to this long are highlighted whole at once.
 */
export const FIRST_SCREEN_FILE_LINES = 1000;

/** The highest old and new line numbers among the first `rows` lines of the hunks. */
function linesShown(hunks: ReturnType<typeof parseUnifiedDiff>[number]["hunks"], rows: number): { old: number; new: number } {
  const shown = { old: 0, new: 0 };
  let left = rows;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (left-- <= 0) return shown;
      if (line.oldLine !== null) shown.old = Math.max(shown.old, line.oldLine);
      if (line.newLine !== null) shown.new = Math.max(shown.new, line.newLine);
    }
  }
  return shown;
}

/** Lines of a file's text without their newlines ("a\nb\n" and "a\nb" both give two lines). */
export function fileLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function hunkHeader(h: { oldStart: number; oldLines: number; newStart: number; newLines: number; section: string }): string {
  return `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${h.section ? ` ${h.section}` : ""}`;
}

/**
 * Builds the model of every file in one stored code change. With `firstRows`, only what the
 * first `firstRows` rows of each file show is highlighted (the first screen; the rest escaped,
 * `partial`): a big change renders at once and is highlighted whole later (DiffView).
 */
export function buildFileModels(source: DiffSource, firstRows = Infinity): FileModel[] {
  const sourceLanguage = languageOf(source.language, source.path);
  let parsed;
  try {
    parsed = parseUnifiedDiff(source.diff);
  } catch (error) {
    return [{ key: source.key, path: source.path, primary: !!source.primary, additions: 0, deletions: 0, segments: [], contextHtml: null, partial: false, error: error instanceof Error ? error.message : String(error) }];
  }
  return parsed.map((file, fileIndex) => {
    const path = file.newPath || file.oldPath || source.path;
    // Old/new contents belong to the stored file: the single file of the diff, or the one with its path.
    const ownsContents = parsed.length === 1 || path === source.path;
    // The stored language is the stored file's; the other files of a pull request go by their extensions.
    const language = ownsContents ? sourceLanguage : (languageOf("", path) ?? sourceLanguage);
    const oldLines = ownsContents && source.oldFile !== undefined ? fileLines(source.oldFile) : null;
    const newLines = ownsContents && source.newFile !== undefined ? fileLines(source.newFile) : null;
    const consistent = oldLines !== null && newLines !== null && (oldLines.length > 0 || newLines.length > 0) && matchesFiles(file.hunks, oldLines, newLines);
    // The old file only shows in deleted lines: only those are written (the scan still reads it whole).
    const deleted = consistent ? file.hunks.flatMap((h) => h.lines.flatMap((l) => (l.kind === "del" ? [l.oldLine! - 1] : []))) : [];
    const showsOld = deleted.length > 0;
    const shown = firstRows === Infinity ? null : linesShown(file.hunks, firstRows);
    const limit = (needed: number, total: number) => (shown === null || total <= FIRST_SCREEN_FILE_LINES ? total : needed <= FIRST_SCREEN_FILE_LINES ? needed : 0);
    const oldLimit = showsOld ? limit(shown?.old ?? 0, oldLines!.length) : 0;
    const newLimit = consistent ? limit(shown?.new ?? 0, newLines!.length) : 0;
    const oldHtml = showsOld ? highlightLines(oldLines!, language, oldLimit, deleted) : [];
    const newHtml = consistent ? highlightLines(newLines!, language, newLimit) : null;
    let partial = language !== null && ((showsOld && oldLimit < oldLines!.length) || (consistent && newLimit < newLines!.length));
    let rowsBefore = 0;

    const segments: Segment[] = [];
    let additions = 0;
    let deletions = 0;
    let oldNext = 1;
    let newNext = 1;
    const key = parsed.length === 1 ? source.key : `${source.key}~${fileIndex}`;
    file.hunks.forEach((hunk, hunkIndex) => {
      const oldFrom = hunk.oldLines === 0 ? hunk.oldStart + 1 : hunk.oldStart;
      const newFrom = hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart;
      const hidden = Math.min(oldFrom - oldNext, newFrom - newNext);
      if (hidden > 0) segments.push({ type: "gap", id: `${key}:${hunkIndex}`, oldStart: oldNext, newStart: newNext, count: hidden });
      // Without the files, each side of the hunk is highlighted as its own text (hunks below the first screen later).
      const onScreen = rowsBefore < firstRows;
      rowsBefore += hunk.lines.length;
      if (!newHtml && !onScreen && language !== null) partial = true;
      const side = (skip: DiffLineKind) => {
        const lines = hunk.lines.filter((l) => l.kind !== skip).map((l) => l.text);
        return highlightLines(lines, language, onScreen ? lines.length : 0);
      };
      const sides = newHtml ? null : { old: side("add"), new: side("del") };
      let oldIndex = 0;
      let newIndex = 0;
      const rows: LineRow[] = hunk.lines.map((line) => {
        if (line.kind === "add") additions++;
        if (line.kind === "del") deletions++;
        let html: string;
        if (!sides) html = line.kind === "del" ? oldHtml[line.oldLine! - 1] : newHtml![line.newLine! - 1];
        else {
          html = line.kind === "del" ? sides.old[oldIndex] : sides.new[newIndex];
          if (line.kind !== "add") oldIndex++;
          if (line.kind !== "del") newIndex++;
        }
        return { kind: line.kind, oldNo: line.oldLine, newNo: line.newLine, html };
      });
      segments.push({ type: "hunk", header: hunkHeader(hunk), rows });
      oldNext = oldFrom + hunk.oldLines;
      newNext = newFrom + hunk.newLines;
    });
    if (newHtml && oldLines && newLines) {
      const tail = Math.min(oldLines.length - oldNext + 1, newLines.length - newNext + 1);
      if (tail > 0) segments.push({ type: "gap", id: `${key}:end`, oldStart: oldNext, newStart: newNext, count: tail });
    }
    return { key, path, primary: !!source.primary, additions, deletions, segments, contextHtml: newHtml, partial };
  });
}

/** True when every hunk line is found at its line number in the old / new file. */
function matchesFiles(hunks: ReturnType<typeof parseUnifiedDiff>[number]["hunks"], oldLines: readonly string[], newLines: readonly string[]): boolean {
  const strip = (s: string) => (s.endsWith("\r") ? s.slice(0, -1) : s);
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.oldLine !== null && strip(oldLines[line.oldLine - 1] ?? "\u0000") !== strip(line.text)) return false;
      if (line.newLine !== null && strip(newLines[line.newLine - 1] ?? "\u0000") !== strip(line.text)) return false;
    }
  }
  return true;
}

export interface Expansion {
  /** Lines revealed at the top of the gap (below the previous hunk). */
  top: number;
  /** Lines revealed at the bottom of the gap (above the next hunk). */
  bottom: number;
}

export type UnifiedRow =
  | { type: "line"; row: LineRow; expanded?: boolean }
  | { type: "header"; text: string }
  | { type: "gap"; id: string; hidden: number; expandable: boolean; position: "start" | "middle" | "end" };

function expandedRow(file: FileModel, gap: Extract<Segment, { type: "gap" }>, offset: number): LineRow {
  return { kind: "context", oldNo: gap.oldStart + offset, newNo: gap.newStart + offset, html: file.contextHtml![gap.newStart + offset - 1] ?? "" };
}

/** Lines shown around a line opened by `expansionsShowing`. */
const AROUND = 3;

/** The gaps to open so that each of `lines` (outside the hunks) shows, with a few lines around it. */
export function expansionsShowing(file: FileModel, lines: readonly { side: "LEFT" | "RIGHT"; line: number }[]): Record<string, Expansion> {
  const out: Record<string, Expansion> = {};
  if (!file.contextHtml) return out;
  for (const segment of file.segments) {
    if (segment.type !== "gap") continue;
    for (const { side, line } of lines) {
      const offset = line - (side === "LEFT" ? segment.oldStart : segment.newStart);
      if (offset < 0 || offset >= segment.count) continue;
      const e = out[segment.id] ?? { top: 0, bottom: 0 };
      const top = offset + 1 + AROUND;
      const bottom = segment.count - offset + AROUND;
      // From the nearer end: below the hunk before, or above the hunk after.
      if (top <= bottom) e.top = Math.max(e.top, top);
      else e.bottom = Math.max(e.bottom, bottom);
      out[segment.id] = e;
    }
  }
  return out;
}

/** Rows of the unified view, with the expanded parts of each gap. */
export function unifiedRows(file: FileModel, expansions: Readonly<Record<string, Expansion>>): UnifiedRow[] {
  const out: UnifiedRow[] = [];
  // A hunk's header is shown unless the expanded context above it joins it to what precedes.
  let showHeader = true;
  file.segments.forEach((segment, index) => {
    if (segment.type === "hunk") {
      if (showHeader || !file.contextHtml) out.push({ type: "header", text: segment.header });
      for (const row of segment.rows) out.push({ type: "line", row });
      showHeader = true;
      return;
    }
    const expandable = file.contextHtml !== null;
    const e = expansions[segment.id] ?? { top: 0, bottom: 0 };
    const top = Math.min(e.top, segment.count);
    const bottom = Math.min(e.bottom, segment.count - top);
    for (let i = 0; i < top; i++) out.push({ type: "line", row: expandedRow(file, segment, i), expanded: true });
    const hidden = segment.count - top - bottom;
    if (hidden > 0) out.push({ type: "gap", id: segment.id, hidden, expandable, position: index === 0 ? "start" : index === file.segments.length - 1 ? "end" : "middle" });
    for (let i = segment.count - bottom; i < segment.count; i++) out.push({ type: "line", row: expandedRow(file, segment, i), expanded: true });
    showHeader = hidden > 0 && bottom === 0;
  });
  return out;
}

export type SplitRow = { type: "pair"; left: LineRow | null; right: LineRow | null; expanded?: boolean } | Exclude<UnifiedRow, { type: "line" }>;

/** Rows of the side-by-side view: deletions on the left paired with the additions that follow them. */
export function splitRows(file: FileModel, expansions: Readonly<Record<string, Expansion>>): SplitRow[] {
  const out: SplitRow[] = [];
  let dels: LineRow[] = [];
  let adds: LineRow[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) out.push({ type: "pair", left: dels[i] ?? null, right: adds[i] ?? null });
    dels = [];
    adds = [];
  };
  for (const row of unifiedRows(file, expansions)) {
    if (row.type !== "line") {
      flush();
      out.push(row);
    } else if (row.row.kind === "del") {
      if (adds.length > 0) flush();
      dels.push(row.row);
    } else if (row.row.kind === "add") adds.push(row.row);
    else {
      flush();
      out.push({ type: "pair", left: row.row, right: row.row, expanded: row.expanded });
    }
  }
  flush();
  return out;
}
