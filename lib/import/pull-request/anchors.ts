/**
 * Review comments checked against the pull request's files. A comment must name a file of the
 * pull request and a line that exists on its side (LEFT: the old file, RIGHT: the new file);
 * otherwise it is an error naming the comment's id, path and line. A line that exists but lies
 * outside the diff's hunks (GitHub shows and allows only lines in them) is kept with a warning,
 * and a range written backwards is read as the same range with a warning.
 */
import { parseUnifiedDiff, splitLines } from "@/lib/diff";
import type { DiffSide } from "@/lib/generated/prisma/enums";
import type { ErrorCollector } from "../errors";
import type { CheckedComment, PullRequestFileInput, PullRequestInput, ReviewCommentInput } from "./types";

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The lines of each side the diff's hunks show. */
function hunkLines(diff: string): Record<DiffSide, Set<number>> {
  const shown = { LEFT: new Set<number>(), RIGHT: new Set<number>() };
  if (diff === "") return shown;
  for (const hunk of parseUnifiedDiff(diff)[0]?.hunks ?? []) {
    for (const line of hunk.lines) {
      if (line.oldLine !== null) shown.LEFT.add(line.oldLine);
      if (line.newLine !== null) shown.RIGHT.add(line.newLine);
    }
  }
  return shown;
}

/**
 * GitHub's position in a file's diff (old API data): 1 is the line below the first `@@` header,
 * counting on through later headers. A deleted line is on the LEFT, any other on the RIGHT.
 */
export function lineAtPosition(diff: string, position: number): { side: DiffSide; line: number } | null {
  const lines = diff.split("\n");
  const first = lines.findIndex((l) => l.startsWith("@@"));
  if (first < 0) return null;
  let oldLine = 0;
  let newLine = 0;
  for (let i = first, p = 0; i < lines.length && p <= position; i++, p++) {
    const text = lines[i];
    const header = HUNK_HEADER.exec(text);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    const at = p === position;
    if (text.startsWith("-")) {
      if (at) return { side: "LEFT", line: oldLine };
      oldLine++;
    } else if (text.startsWith("+") || text.startsWith(" ")) {
      if (at) return { side: "RIGHT", line: newLine };
      oldLine += text.startsWith(" ") ? 1 : 0;
      newLine++;
    } else if (at) return null;
  }
  return null;
}

interface FileFacts {
  index: number;
  file: PullRequestFileInput;
  lineCount: Record<DiffSide, number>;
  shown: Record<DiffSide, Set<number>>;
}

function factsOf(file: PullRequestFileInput, index: number): FileFacts {
  return {
    index,
    file,
    lineCount: { LEFT: splitLines(file.oldContents ?? "").length, RIGHT: splitLines(file.newContents ?? "").length },
    shown: hunkLines(file.diff),
  };
}

const SIDE_FILE: Record<DiffSide, string> = { LEFT: "old", RIGHT: "new" };

export interface AnchorCheck {
  comments: CheckedComment[];
  warnings: string[];
}

/**
 * Checks every comment's anchor and thread. `storedIds` are the external ids of comments the
 * pull request already holds (a reply may answer one of them).
 */
export function checkAnchors(pullRequest: PullRequestInput, comments: readonly ReviewCommentInput[], errors: ErrorCollector, storedIds: ReadonlySet<string> = new Set()): AnchorCheck {
  const facts = pullRequest.files.map(factsOf);
  const byPath = new Map(facts.map((f) => [f.file.path, f]));
  const byOldPath = new Map(facts.filter((f) => f.file.oldPath !== null).map((f) => [f.file.oldPath as string, f]));
  const warnings: string[] = [];
  const checked: CheckedComment[] = [];
  const firstLine = new Map<string, number | undefined>();
  for (const comment of comments) {
    const { at, externalId: id, path } = comment;
    const name = `comment ${id}`;
    const place = `${at.file}: line ${at.line}`;
    if (firstLine.has(id)) {
      errors.add(at, "id", `${name} is given twice (first on line ${firstLine.get(id)})`);
      continue;
    }
    firstLine.set(id, at.line);
    const found = byPath.get(path) ?? byOldPath.get(path);
    let anchor = comment.anchor;
    if (!found) {
      const where = anchor.kind === "lines" ? ` line ${anchor.line} (${anchor.side})` : anchor.kind === "position" ? ` position ${anchor.position}` : " (the whole file)";
      // GitHub keeps the comments on a file a later push took out of the pull request.
      errors.add(at, "path", `${name}: ${path}${where}: ${path} is not a file of pull request ${pullRequest.externalId} (a file a later push took out of it keeps its comments on GitHub; --skip-invalid-rows leaves them out)`);
      continue;
    }
    if (anchor.kind === "position") {
      const resolved = lineAtPosition(found.file.diff, anchor.position);
      if (!resolved) {
        errors.add(at, "position", `${name}: ${path} position ${anchor.position} is not a line of the file's diff`);
        continue;
      }
      anchor = { kind: "lines", ...resolved, startLine: null, startSide: null };
    }
    const { anchor: _, ...rest } = comment;
    if (anchor.kind === "file") {
      checked.push({ ...rest, file: found.index, side: anchor.side, startSide: null, startLine: null, line: null });
      continue;
    }
    let { line, startLine } = anchor;
    const { side, startSide } = anchor;
    if (found.file.binary) {
      errors.add(at, "line", `${name}: ${path} line ${line}: the file is binary; comment on the whole file (subject_type "file")`);
      continue;
    }
    const bad = (n: number, s: DiffSide) => n > found.lineCount[s];
    const endpoints: [number, DiffSide, "line" | "start_line"][] = [[line, side, "line"]];
    if (startLine !== null) endpoints.push([startLine, startSide ?? side, "start_line"]);
    const missing = endpoints.filter(([n, s]) => bad(n, s));
    for (const [n, s, field] of missing) {
      const count = found.lineCount[s];
      const has = count === 0 ? `the ${SIDE_FILE[s]} file has no lines${s === "LEFT" && found.file.status === "ADDED" ? " (the file is added)" : s === "RIGHT" && found.file.status === "DELETED" ? " (the file is deleted)" : ""}` : `the ${SIDE_FILE[s]} file has ${count} lines`;
      errors.add(at, field, `${name}: ${path} line ${n} (${s}) does not exist: ${has}`);
    }
    if (missing.length > 0) continue;
    if (startLine !== null && (startSide ?? side) === side && startLine > line) {
      warnings.push(`${place}: ${name} on ${path}: the range ${startLine}-${line} is written backwards; read as ${line}-${startLine}`);
      [startLine, line] = [line, startLine];
    }
    const lines: [number, DiffSide][] = startLine === null ? [[line, side]] : [[startLine, startSide ?? side], [line, side]];
    const outside = lines.filter(([n, s]) => !found.shown[s].has(n));
    if (outside.length > 0) warnings.push(`${place}: ${name} on ${path} line ${outside.map(([n, s]) => `${n} (${s})`).join(", ")} lies outside the diff's hunks; kept`);
    checked.push({ ...rest, file: found.index, side, startSide: startLine === null ? null : (startSide ?? side), startLine, line });
  }
  const known = new Set([...checked.map((c) => c.externalId), ...storedIds]);
  for (const comment of checked) {
    if (comment.inReplyTo !== null && !known.has(comment.inReplyTo)) {
      warnings.push(`${comment.at.file}: line ${comment.at.line}: comment ${comment.externalId} answers comment ${comment.inReplyTo}, which is not in the pull request; kept as a comment of its own`);
      comment.inReplyTo = null;
    }
  }
  return { comments: checked, warnings };
}
