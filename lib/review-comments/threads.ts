/**
 * Review comments as a pull request's page shows them: threads (a comment and its replies,
 * GitHub's in_reply_to_id), each at its file and line, in reading order; the lines each comment
 * covers. Pure functions shared by the page's server render, the browser and the tests.
 */
import { parseUnifiedDiff } from "@/lib/diff";
import type { DiffSide } from "@/lib/generated/prisma/enums";

/** Where a review comment points: a side and a line range of a pull request's file, or the whole file. */
export interface CommentAnchor {
  /** The file's code change. */
  codeChangeId: string;
  path: string;
  /** null on a whole-file comment that names no side. */
  side: DiffSide | null;
  startSide: DiffSide | null;
  /** First line of a range; null on a one-line or whole-file comment. */
  startLine: number | null;
  /** null: the comment is on the whole file. */
  line: number | null;
}

/** What placing a comment needs. */
export interface AnchoredComment extends Omit<CommentAnchor, "path"> {
  id: string;
  inReplyToId: string | null;
}

/** A comment with its replies (and their replies), in the order given. */
export interface Thread<C extends AnchoredComment> {
  root: C;
  replies: C[];
}

/**
 * Where a line of one side falls in a file's diff, on the new file's scale, so that comments on
 * either side sort as the unified diff shows them: new line n is n; an old line in a hunk is the
 * new line its row follows (a context line's own), plus a fraction for a deleted line (deleted
 * rows come before the added ones); an old line outside the hunks is shifted by the lines the
 * hunks before it added. An unreadable diff places every line at its number.
 */
export function diffPositions(diff: string): (side: DiffSide, line: number) => number {
  let hunks: ReturnType<typeof parseUnifiedDiff>[number]["hunks"] = [];
  try {
    hunks = parseUnifiedDiff(diff)[0]?.hunks ?? [];
  } catch {
    // placed at their numbers
  }
  const old = new Map<number, number>();
  const shifts: { from: number; shift: number }[] = [];
  for (const hunk of hunks) {
    let lastNew = hunk.newLines === 0 ? hunk.newStart : hunk.newStart - 1;
    let deleted = 0;
    for (const l of hunk.lines) {
      if (l.newLine !== null) {
        lastNew = l.newLine;
        deleted = 0;
      }
      if (l.oldLine !== null) old.set(l.oldLine, l.kind === "del" ? lastNew + 0.5 + ++deleted / 1e6 : lastNew);
    }
    const oldEnd = (hunk.oldLines === 0 ? hunk.oldStart + 1 : hunk.oldStart) + hunk.oldLines;
    const newEnd = (hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart) + hunk.newLines;
    shifts.push({ from: oldEnd, shift: newEnd - oldEnd });
  }
  return (side, line) => {
    if (side === "RIGHT") return line;
    const inHunk = old.get(line);
    if (inHunk !== undefined) return inHunk;
    const before = shifts.filter((s) => s.from <= line).at(-1);
    return line + (before?.shift ?? 0);
  };
}

/**
 * The threads of a pull request's comments in reading order: by file (`fileOrder`, code change
 * ids), whole-file threads first, then where the unified diff shows them (after the row of their
 * last line: `position`, from `diffPositions`; the line number when not given), then by `rank`
 * of their first comment (an annotator's seeded order of the reviewers), then as given. A reply
 * joins the thread of the comment it answers (through chains of replies), replies as given; a
 * reply to a comment that is not in the list starts a thread of its own.
 */
export function threadsOf<C extends AnchoredComment>(comments: readonly C[], fileOrder: readonly string[], position: (comment: C) => number = (c) => c.line ?? 0, rank: (comment: C) => number = () => 0): Thread<C>[] {
  const byId = new Map(comments.map((c) => [c.id, c]));
  const rootOf = (c: C): C => {
    const seen = new Set<string>();
    let at = c;
    while (at.inReplyToId !== null && byId.has(at.inReplyToId) && !seen.has(at.id)) {
      seen.add(at.id);
      at = byId.get(at.inReplyToId)!;
    }
    return at;
  };
  const threads = new Map<string, Thread<C>>();
  for (const c of comments) {
    const root = rootOf(c);
    const thread = threads.get(root.id) ?? { root, replies: [] };
    if (c !== root) thread.replies.push(c);
    threads.set(root.id, thread);
  }
  const file = new Map(fileOrder.map((id, i) => [id, i]));
  const given = new Map(comments.map((c, i) => [c.id, i]));
  const key = ({ root }: Thread<C>) => [file.get(root.codeChangeId) ?? fileOrder.length, root.line === null ? -Infinity : position(root), rank(root), given.get(root.id)!];
  return [...threads.values()].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || (x[1] === y[1] ? 0 : x[1] < y[1] ? -1 : 1) || x[2] - y[2] || x[3] - y[3];
  });
}

/** Every comment of the threads in reading order: the order j and k walk. */
export const readingOrder = <C extends AnchoredComment>(threads: readonly Thread<C>[]): C[] => threads.flatMap((t) => [t.root, ...t.replies]);

/** A pull request's comments in reading order, placed by their files' diffs (files in the pull request's order); threads at one place by `rank` (see threadsOf). */
export function commentsInReadingOrder<C extends AnchoredComment>(comments: readonly C[], files: readonly { codeChangeId: string; diff: string }[], rank?: (comment: C) => number): C[] {
  const positions = new Map(files.map((f) => [f.codeChangeId, diffPositions(f.diff)]));
  return readingOrder(
    threadsOf(
      comments,
      files.map((f) => f.codeChangeId),
      (c) => positions.get(c.codeChangeId)?.(sideOf(c), c.line!) ?? c.line!,
      rank,
    ),
  );
}

/** The side a comment's line is on: GitHub's default is the new file (RIGHT). */
export const sideOf = (c: Pick<AnchoredComment, "side">): DiffSide => c.side ?? "RIGHT";

/** Where a thread is shown: after the line `line` of `side`, or at the file's head (null). */
export function anchorOf(c: AnchoredComment): { side: DiffSide; line: number } | null {
  return c.line === null ? null : { side: sideOf(c), line: c.line };
}

/**
 * Whether a comment covers line `n` of a side: its range from `startLine` (on `startSide`) to
 * `line` (on `side`). A range starting on the old side and ending on the new one covers the old
 * lines from its start and the new lines up to its end.
 */
export function covers(c: AnchoredComment, side: DiffSide, n: number): boolean {
  if (c.line === null) return false;
  const end = sideOf(c);
  if (c.startLine === null) return side === end && n === c.line;
  const start = c.startSide ?? end;
  if (start === end) return side === end && n >= Math.min(c.startLine, c.line) && n <= Math.max(c.startLine, c.line);
  return (side === start && n >= c.startLine) || (side === end && n <= c.line);
}

/** How many comments each file has, by code change id. */
export function commentCounts(comments: readonly Pick<AnchoredComment, "codeChangeId">[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of comments) counts.set(c.codeChangeId, (counts.get(c.codeChangeId) ?? 0) + 1);
  return counts;
}

/** "line 12", "lines 10–12", "old line 4", "the whole file": where a comment is, in words. */
export function anchorText(c: AnchoredComment): string {
  if (c.line === null) return "the whole file";
  const prefix = sideOf(c) === "LEFT" ? "old " : "";
  if (c.startLine === null || c.startLine === c.line) return `${prefix}line ${c.line}`;
  const startPrefix = (c.startSide ?? sideOf(c)) === "LEFT" ? "old " : "";
  if (startPrefix === prefix) return `${prefix}lines ${Math.min(c.startLine, c.line)}–${Math.max(c.startLine, c.line)}`;
  return `${startPrefix}line ${c.startLine} to ${prefix}line ${c.line}`;
}
