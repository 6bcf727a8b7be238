/**
 * Pull requests as items of a study (c-CRAB §4): the pull request with its commits, its files
 * (its code changes, in file order) and the review comments anchored to their lines. A
 * system's review of a pull request is not a row: it is the system's comments on it
 * (`reviewsOf`). Reads find the study through leadStudyWhere (another lead's study answers 404);
 * the import writes inside the import's transaction (lib/import).
 */
import "server-only";
import { db, type Prisma, type PrismaClient } from "@/lib/db/client";
import type { FileStatus } from "@/lib/generated/prisma/enums";
import { AppError } from "@/lib/errors";
import { leadStudyWhere } from "@/lib/data/study-access";
import type { JsonObject } from "@/lib/import/bundle";
import type { ImportError } from "@/lib/import/errors";
import type { TableCounts } from "@/lib/import/plan";
import { orderedIds } from "@/lib/import/row-ids";
import type { CheckedComment, PullRequestFileInput, PullRequestInput } from "@/lib/import/pull-request/types";
import type { SessionAccount } from "@/lib/auth/authenticate";
import type { DiffSource } from "@/lib/diff";
import { sourceOfFile } from "@/lib/review-comments/display";
import type { CommentAnchor } from "@/lib/review-comments/threads";

type Tx = Prisma.TransactionClient;
type Client = PrismaClient | Tx;

export interface PullRequestFileView {
  /** The code change holding the file. */
  codeChangeId: string;
  externalId: string;
  /** The new path; a deleted file's old path. */
  path: string;
  /** The path before the change; "" for an added file. */
  oldPath: string;
  status: FileStatus | null;
  binary: boolean;
  language: string;
  /** The file's unified diff; "" for a binary file or one without hunks (a pure rename). */
  diff: string;
  oldFile: string;
  newFile: string;
}

export interface ReviewCommentView extends CommentAnchor {
  id: string;
  externalId: string;
  body: string;
  system: string;
  author: string;
  /** Id (not external id) of the comment this one answers. */
  inReplyToId: string | null;
  metadata: JsonObject;
}

/** A system's review of a pull request: its comments, in the pull request's order. */
export interface PullRequestReview {
  system: string;
  commentIds: string[];
}

export interface PullRequestView {
  id: string;
  studyId: string;
  externalId: string;
  repository: string;
  url: string;
  title: string;
  description: string;
  baseSha: string;
  headSha: string;
  mergeBaseSha: string;
  files: PullRequestFileView[];
  /** In the pull request's order (the order they were imported in); replies after what they answer when imported so. */
  comments: ReviewCommentView[];
  reviews: PullRequestReview[];
}

/** The reviews of a pull request: its comments grouped by system, systems in the order of their first comment. */
export function reviewsOf(comments: readonly Pick<ReviewCommentView, "id" | "system">[]): PullRequestReview[] {
  const bySystem = new Map<string, string[]>();
  for (const comment of comments) {
    const ids = bySystem.get(comment.system) ?? [];
    ids.push(comment.id);
    bySystem.set(comment.system, ids);
  }
  return [...bySystem].map(([system, commentIds]) => ({ system, commentIds }));
}

const FILE_SELECT = { id: true, externalId: true, filePath: true, oldPath: true, status: true, binary: true, language: true, diff: true, oldFile: true, newFile: true } as const;
const COMMENT_SELECT = { id: true, externalId: true, codeChangeId: true, path: true, side: true, startSide: true, startLine: true, line: true, body: true, system: true, author: true, inReplyToId: true, metadata: true } as const;

/** One pull request with its files and comments, or null. */
async function readPullRequest(where: Prisma.PullRequestWhereInput, client: Client): Promise<PullRequestView | null> {
  const row = await client.pullRequest.findFirst({
    where,
    include: {
      codeChanges: { select: FILE_SELECT, orderBy: [{ position: "asc" }, { externalId: "asc" }] },
      comments: { select: COMMENT_SELECT, orderBy: [{ position: "asc" }, { id: "asc" }] },
    },
  });
  if (!row) return null;
  const { codeChanges, comments, metadata: _, createdAt: __, ...pullRequest } = row;
  const commentViews = comments.map((c) => ({ ...c, metadata: c.metadata as JsonObject }));
  return {
    ...pullRequest,
    files: codeChanges.map(({ id, filePath, ...file }) => ({ codeChangeId: id, path: filePath, ...file })),
    comments: commentViews,
    reviews: reviewsOf(commentViews),
  };
}

/** A pull request of a study the account leads, by its external id; 404 otherwise. */
export async function requireLedPullRequest(account: Pick<SessionAccount, "id" | "role">, slug: string, externalId: string, client: Client = db): Promise<PullRequestView> {
  const view = await readPullRequest({ externalId, study: { slug, ...leadStudyWhere(account) } }, client);
  if (!view) throw new AppError("NOT_FOUND", { message: "No such pull request." });
  return view;
}

/** A code change of a study the account leads: its diff and contents, which a pull request's page and preview load as the file nears the screen; 404 otherwise. */
export async function requireLedCodeChangeSource(account: Pick<SessionAccount, "id" | "role">, slug: string, codeChangeId: string, client: Client = db): Promise<DiffSource> {
  const file = await client.codeChange.findFirst({ where: { id: codeChangeId, study: { slug, ...leadStudyWhere(account) } }, select: FILE_SELECT });
  if (!file) throw new AppError("NOT_FOUND", { message: "No such file in this study." });
  const { id, filePath, ...rest } = file;
  return sourceOfFile({ codeChangeId: id, path: filePath, ...rest });
}

/** The pull requests of a study as exports read them (no authorization: the export's caller checked the study). */
export async function studyPullRequests(studyId: string, client: Client = db): Promise<PullRequestView[]> {
  const ids = await client.pullRequest.findMany({ where: { studyId }, select: { id: true }, orderBy: { externalId: "asc" } });
  const views: PullRequestView[] = [];
  for (const { id } of ids) {
    const view = await readPullRequest({ id }, client);
    if (view) views.push(view);
  }
  return views;
}

/** What a study holds of pull requests an import names: the stored head and comment ids, by external id. */
export interface StoredPullRequest {
  headSha: string;
  mergeBaseSha: string;
  commentIds: Set<string>;
}

export async function storedPullRequests(slug: string, externalIds: readonly string[], client: Client = db): Promise<Map<string, StoredPullRequest>> {
  const rows = await client.pullRequest.findMany({ where: { study: { slug }, externalId: { in: [...externalIds] } }, select: { externalId: true, headSha: true, mergeBaseSha: true, comments: { select: { externalId: true } } } });
  return new Map(rows.map((r) => [r.externalId, { headSha: r.headSha, mergeBaseSha: r.mergeBaseSha, commentIds: new Set(r.comments.map((c) => c.externalId)) }]));
}

/** A pull request and its checked comments, as the import writes them. */
export interface PullRequestRows {
  pullRequest: PullRequestInput;
  comments: CheckedComment[];
}

export interface PullRequestCounts {
  pullRequests: TableCounts;
  codeChanges: TableCounts;
  reviewComments: TableCounts;
}

const EXTENSION_LANGUAGE: Record<string, string> = {
  c: "c", cc: "cpp", cpp: "cpp", cs: "csharp", css: "css", go: "go", h: "c", hpp: "cpp", html: "html", java: "java", js: "javascript", jsx: "javascript", cjs: "javascript", mjs: "javascript",
  json: "json", kt: "kotlin", md: "markdown", php: "php", py: "python", rb: "ruby", rs: "rust", scala: "scala", sh: "shell", sql: "sql", swift: "swift", ts: "typescript", tsx: "typescript", yaml: "yaml", yml: "yaml",
};

/** A file's language from its extension ("text" when unknown, "binary" for a binary file). */
export function languageOfFile(file: Pick<PullRequestFileInput, "path" | "binary">): string {
  if (file.binary) return "binary";
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.path)?.[1]?.toLowerCase();
  return (extension && EXTENSION_LANGUAGE[extension]) || "text";
}

/** The code change id of each file of a pull request: `PR_ID:path`. */
export const fileExternalId = (pullRequestId: string, file: Pick<PullRequestFileInput, "path">) => `${pullRequestId}:${file.path}`;

/** A comment's stored columns compared with an import's (external ids for the thread). */
function commentFields(c: Pick<CheckedComment, "path" | "side" | "startSide" | "startLine" | "line" | "body" | "system" | "author" | "inReplyTo" | "test">) {
  return JSON.stringify([c.path, c.side, c.startSide, c.startLine, c.line, c.body.replace(/\r\n/g, "\n"), c.system, c.author, c.inReplyTo, c.test?.path ?? null, c.test?.text ?? null]);
}

const emptyCounts = (): TableCounts => ({ created: 0, updated: 0, unchanged: 0 });

/**
 * Writes pull requests with their files and comments inside the import's transaction. A pull
 * request the study holds keeps its files (it must have the same head); its comments are matched
 * by external id: the same comment is unchanged, a new one created, a different one a conflict
 * (updated with `update`).
 */
export async function writePullRequests(tx: Tx, studyId: string, items: readonly PullRequestRows[], options: { update: boolean; now?: Date }): Promise<{ counts: PullRequestCounts; conflicts: ImportError[] }> {
  const counts: PullRequestCounts = { pullRequests: emptyCounts(), codeChanges: emptyCounts(), reviewComments: emptyCounts() };
  const conflicts: ImportError[] = [];
  const nextId = orderedIds(options.now ?? new Date());
  for (const { pullRequest: pr, comments } of items) {
    const stored = await tx.pullRequest.findUnique({
      where: { studyId_externalId: { studyId, externalId: pr.externalId } },
      include: { codeChanges: { select: { id: true, filePath: true } }, comments: { select: { ...COMMENT_SELECT, position: true, testPath: true, testText: true, inReplyTo: { select: { externalId: true } } } } },
    });
    let pullRequestId: string;
    let fileIds: string[];
    if (stored) {
      if (stored.headSha !== pr.headSha || stored.mergeBaseSha !== pr.mergeBaseSha) {
        conflicts.push({ ...pr.at, field: "head", message: `pull request ${pr.externalId} is stored with head ${stored.headSha.slice(0, 12) || "(none)"} and merge base ${stored.mergeBaseSha.slice(0, 12) || "(none)"}, not ${pr.headSha.slice(0, 12) || "(none)"} and ${pr.mergeBaseSha.slice(0, 12) || "(none)"}: its comments' lines are on those files; import this one under another id` });
        continue;
      }
      const byPath = new Map(stored.codeChanges.map((c) => [c.filePath, c.id]));
      const missing = pr.files.filter((f) => !byPath.has(f.path));
      if (missing.length > 0) {
        conflicts.push({ ...pr.at, field: "files", message: `pull request ${pr.externalId} is stored without ${missing.map((f) => f.path).join(", ")}` });
        continue;
      }
      counts.pullRequests.unchanged++;
      counts.codeChanges.unchanged += pr.files.length;
      pullRequestId = stored.id;
      fileIds = pr.files.map((f) => byPath.get(f.path) as string);
    } else {
      const clash = await tx.codeChange.findMany({ where: { studyId, externalId: { in: pr.files.map((f) => fileExternalId(pr.externalId, f)) } }, select: { externalId: true } });
      if (clash.length > 0) {
        conflicts.push({ ...pr.at, field: "id", message: `the study already has code changes ${clash.map((c) => c.externalId).join(", ")} outside pull request ${pr.externalId}` });
        continue;
      }
      pullRequestId = nextId();
      await tx.pullRequest.create({ data: { id: pullRequestId, studyId, externalId: pr.externalId, repository: pr.repository, url: pr.url, title: pr.title, description: pr.description, baseSha: pr.baseSha, headSha: pr.headSha, mergeBaseSha: pr.mergeBaseSha, metadata: pr.metadata as Prisma.InputJsonObject } });
      const last = await tx.codeChange.aggregate({ where: { studyId }, _max: { position: true } });
      const start = (last._max.position ?? -1) + 1;
      fileIds = pr.files.map(() => nextId());
      await tx.codeChange.createMany({
        data: pr.files.map((f, i) => ({
          id: fileIds[i],
          studyId,
          externalId: fileExternalId(pr.externalId, f),
          pullRequestId,
          filePath: f.path,
          oldPath: f.oldPath ?? "",
          status: f.status,
          binary: f.binary,
          language: languageOfFile(f),
          diff: f.diff,
          oldFile: f.oldContents ?? "",
          newFile: f.newContents ?? "",
          position: start + i,
        })),
      });
      counts.pullRequests.created++;
      counts.codeChanges.created += pr.files.length;
    }

    const storedComments = new Map((stored?.comments ?? []).map((c) => [c.externalId, c]));
    const idOf = new Map((stored?.comments ?? []).map((c) => [c.externalId, c.id]));
    const fresh = comments.filter((c) => !storedComments.has(c.externalId));
    for (const c of fresh) idOf.set(c.externalId, nextId());
    let position = Math.max(-1, ...(stored?.comments ?? []).map((c) => c.position)) + 1;
    const row = (c: CheckedComment) => ({ path: c.path, side: c.side, startSide: c.startSide, startLine: c.startLine, line: c.line, body: c.body, system: c.system, author: c.author, inReplyToId: c.inReplyTo === null ? null : (idOf.get(c.inReplyTo) ?? null), metadata: c.metadata as Prisma.InputJsonObject, codeChangeId: fileIds[c.file], testPath: c.test?.path ?? null, testText: c.test?.text ?? null });
    // One statement: a reply may come before the comment it answers, and the foreign key is checked at the statement's end.
    await tx.reviewComment.createMany({ data: fresh.map((c) => ({ id: idOf.get(c.externalId) as string, pullRequestId, externalId: c.externalId, position: position++, ...row(c) })) });
    counts.reviewComments.created += fresh.length;
    for (const c of comments) {
      const old = storedComments.get(c.externalId);
      if (!old) continue;
      const oldTest = old.testText === null ? null : { path: old.testPath ?? "", text: old.testText };
      if (commentFields({ ...old, startLine: old.startLine, inReplyTo: old.inReplyTo?.externalId ?? null, test: oldTest }) === commentFields(c)) {
        counts.reviewComments.unchanged++;
        continue;
      }
      if (!options.update) {
        conflicts.push({ ...c.at, field: "id", message: `comment ${c.externalId} of pull request ${pr.externalId} is stored with another anchor, text, system, author, thread or linked test; import with --update to replace it` });
        continue;
      }
      await tx.reviewComment.update({ where: { id: old.id }, data: row(c) });
      counts.reviewComments.updated++;
    }
  }
  return { counts, conflicts };
}
