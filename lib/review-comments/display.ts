/**
 * What a pull request's page shows of it (components/pull-request): its head, its files with
 * their diffs and contents, and its review comments with who wrote them as the reader may know it.
 */
import type { DiffSource } from "@/lib/diff";
import type { FileStatus } from "@/lib/generated/prisma/enums";
import type { JsonObject } from "@/lib/import/bundle";
import { commentsInReadingOrder, type AnchoredComment } from "./threads";

/** The pull request as its page heads it. */
export interface PullRequestHead {
  externalId: string;
  repository: string;
  url: string;
  title: string;
  description: string;
  baseSha: string;
  headSha: string;
}

/** One file of the pull request: its status and paths, and its diff with the old and new contents. */
export interface PullRequestFile {
  codeChangeId: string;
  path: string;
  /** "" for an added file. */
  oldPath: string;
  status: FileStatus | null;
  binary: boolean;
  /** The diff and contents; null while not loaded (the annotator's workspace loads a file's when it comes near the screen). */
  source: DiffSource | null;
  /** The lines of its diff: the height its section keeps before it is rendered. */
  diffLines: number;
}

/** At most this many files' diffs come with the page (and its first paint renders them); the others come as they near the screen. */
export const FIRST_FILES = 2;
/** Diff lines that fill the first screen: a file after them is below it. */
const FIRST_SCREEN_LINES = 100;

/** The lines of a unified diff, as a file's section reserves them. */
export const diffLineCount = (diff: string) => (diff === "" ? 0 : diff.split("\n").length);

/** The files whose diffs come with the page: the first, and the next of the first FIRST_FILES while the diffs before them fill less than a screen. */
export function firstScreenFiles<F extends { diff: string }>(files: readonly F[]): F[] {
  let lines = 0;
  return files.slice(0, FIRST_FILES).filter((file, i) => {
    const shown = i === 0 || lines < FIRST_SCREEN_LINES;
    lines += diffLineCount(file.diff);
    return shown;
  });
}

/** A review comment as the page shows it. */
export interface PullRequestComment extends AnchoredComment {
  path: string;
  /** Markdown. */
  body: string;
  /** Who wrote it as the reader may know it: the system, or "Reviewer A" when the study blinds systems. */
  reviewer: string;
  /** The login that posted it, when the reader may know it. */
  author?: string;
  /** The tool's own fields worth showing (severity, category), for a lead. */
  details?: string[];
}

/** The tool's metadata a lead sees beside a comment. */
const DETAIL_KEYS = ["severity", "category"] as const;

export function commentDetails(metadata: JsonObject): string[] {
  return DETAIL_KEYS.flatMap((key) => {
    const value = metadata[key];
    return typeof value === "string" || typeof value === "number" ? [`${key}: ${value}`] : [];
  });
}

/** A file as the page heads it (its diff and contents come as its `DiffSource`). */
export type PullRequestFileHead = Omit<PullRequestFile, "source">;

type StoredFile = { codeChangeId: string; path: string; oldPath: string; status: FileStatus | null; binary: boolean; language: string; diff: string; oldFile: string; newFile: string };

/** A stored file's diff and contents as the diff view's source. */
export const sourceOfFile = ({ codeChangeId, path, language, diff, oldFile, newFile }: StoredFile): DiffSource => ({ key: codeChangeId, path, language, diff, oldFile, newFile });

/**
 * A pull request as a lead sees it: the files' heads with the first files' diffs and contents
 * (the others are loaded as they near the screen), and every comment in reading order under its
 * system and author, with the tool's severity and category.
 */
export function leadDisplay(view: PullRequestHead & { files: StoredFile[]; comments: (AnchoredComment & { path: string; body: string; system: string; author: string; metadata: JsonObject })[] }): {
  pullRequest: PullRequestHead;
  files: PullRequestFileHead[];
  sources: DiffSource[];
  comments: PullRequestComment[];
} {
  const { externalId, repository, url, title, description, baseSha, headSha } = view;
  return {
    pullRequest: { externalId, repository, url, title, description, baseSha, headSha },
    files: view.files.map(({ codeChangeId, path, oldPath, status, binary, diff }) => ({ codeChangeId, path, oldPath, status, binary, diffLines: diffLineCount(diff) })),
    sources: firstScreenFiles(view.files)
      .filter((f) => !f.binary)
      .map(sourceOfFile),
    comments: commentsInReadingOrder(view.comments, view.files).map(({ id, codeChangeId, path, side, startSide, startLine, line, inReplyToId, body, system, author, metadata }) => ({
      id,
      codeChangeId,
      path,
      side,
      startSide,
      startLine,
      line,
      inReplyToId,
      body,
      reviewer: system,
      ...(author ? { author } : {}),
      details: commentDetails(metadata),
    })),
  };
}
