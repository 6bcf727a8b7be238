/**
 * A pull request as an import reads it, before it is stored (lib/data/pull-requests.ts): its
 * commits, its files with their contents and diffs, and the review comments on its lines.
 * Every part keeps where it came from, so that errors name the file, line and field.
 */
import type { DiffSide, FileStatus } from "@/lib/generated/prisma/enums";
import type { JsonObject } from "../bundle";
import type { SourceLocation } from "../errors";
import type { CommentAnchor } from "@/lib/review-comments/threads";

export interface PullRequestFileInput {
  status: FileStatus;
  /** The new path; a deleted file's old path. */
  path: string;
  /** The path before the change; null for an added file. */
  oldPath: string | null;
  /** Listed, not shown: no contents and no diff. */
  binary: boolean;
  /** null where the file does not exist (added: old; deleted: new) or is binary. */
  oldContents: string | null;
  newContents: string | null;
  /** The file's unified diff as git writes it (with its `diff --git` header), "" when it has no hunks. */
  diff: string;
  at: SourceLocation;
}

export interface PullRequestInput {
  /** The pull request's id in the study. */
  externalId: string;
  repository: string;
  url: string;
  title: string;
  description: string;
  baseSha: string;
  headSha: string;
  mergeBaseSha: string;
  metadata: JsonObject;
  files: PullRequestFileInput[];
  at: SourceLocation;
}

/**
 * Where a comment points before it is checked against the pull request's files: lines on a side,
 * the whole file, or (old GitHub data) a position in the file's diff.
 */
export type AnchorInput =
  | { kind: "file"; side: DiffSide | null }
  | { kind: "lines"; side: DiffSide; line: number; startLine: number | null; startSide: DiffSide | null }
  | { kind: "position"; position: number };

export interface ReviewCommentInput {
  externalId: string;
  path: string;
  anchor: AnchorInput;
  body: string;
  system: string;
  author: string;
  /** External id of the comment this one answers. */
  inReplyTo: string | null;
  metadata: JsonObject;
  /** A test linked to the comment (c-CRAB §4.4.3): its file and text; null or absent when none. */
  test?: { path: string; text: string } | null;
  at: SourceLocation;
}

/** A comment whose anchor is checked: lines on a side of one of the pull request's files, or the whole file. */
export interface CheckedComment extends Omit<ReviewCommentInput, "anchor">, Omit<CommentAnchor, "codeChangeId"> {
  /** Index of the file in PullRequestInput.files. */
  file: number;
}
