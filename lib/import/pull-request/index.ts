/**
 * Pull-request imports: from a git repository with comments files (`import-pr`), or from
 * self-contained bundles (format `pull-request`). Parsing and anchor checking are pure and
 * report every problem with its file, line and field; lib/import/index.ts writes the result
 * in the import's one transaction (lib/data/pull-requests.ts).
 */
import type { PullRequestRows, StoredPullRequest } from "@/lib/data/pull-requests";
import type { ErrorCollector } from "../errors";
import { readText, type ImportFile } from "../file";
import { checkAnchors } from "./anchors";
import { parseCommentsJsonl, parsePullRequestBundle } from "./comments-jsonl";
import { readGitPullRequest, type GitPullRequestOptions } from "./git";
import { parseGithubComments } from "./github-comments";
import { readJsonValues } from "./json-values";
import type { PullRequestInput, ReviewCommentInput } from "./types";

export type CommentsFormat = "github" | "jsonl";
export const COMMENTS_FORMATS: readonly CommentsFormat[] = ["github", "jsonl"];

export interface PullRequestImportOptions {
  /** `import-pr`: the pull request is read from this repository, and the import's files are comments files. */
  git?: GitPullRequestOptions;
  /** The system of every comment in the comments files (a tool posting from a shared account); else each comment's own, or its author's. */
  system?: string;
  /** How the comments files are written; by default GitHub's REST shape unless the first comment has the product's `system` and no `user`. */
  commentsFormat?: CommentsFormat;
}

export interface ParsedPullRequest {
  pullRequest: PullRequestInput;
  comments: ReviewCommentInput[];
}

/** GitHub's keys that the product's comments JSONL does not have. */
const GITHUB_KEYS = ["user", "subject_type", "start_line", "start_side", "in_reply_to_id", "original_line", "position", "diff_hunk", "commit_id"];

function formatOf(first: unknown, stated: CommentsFormat | undefined): CommentsFormat {
  if (stated) return stated;
  if (first === null || typeof first !== "object") return "github";
  const keys = Object.keys(first);
  return keys.includes("system") && !GITHUB_KEYS.some((k) => keys.includes(k)) ? "jsonl" : "github";
}

/** The comments of one comments file. */
function commentsOfFile(file: ImportFile, options: PullRequestImportOptions, headSha: string, errors: ErrorCollector, warnings: string[]): ReviewCommentInput[] {
  const text = readText(file, errors);
  if (text === null) return [];
  const values = readJsonValues(text, file.name, errors);
  if (formatOf(values[0]?.value, options.commentsFormat) === "jsonl") {
    const comments = parseCommentsJsonl(text, file.name, errors);
    return options.system ? comments.map((c) => ({ ...c, system: options.system as string })) : comments;
  }
  const parsed = parseGithubComments(values, file.name, { system: options.system, headSha }, errors);
  warnings.push(...parsed.warnings);
  return parsed.comments;
}

/** The pull requests of an import and their comments, before their anchors are checked. */
export async function parsePullRequestImport(files: readonly ImportFile[], options: PullRequestImportOptions, errors: ErrorCollector): Promise<{ parsed: ParsedPullRequest[]; warnings: string[] }> {
  const warnings: string[] = [];
  if (options.git) {
    const read = await readGitPullRequest(options.git);
    warnings.push(...read.warnings);
    const comments = files.flatMap((file) => commentsOfFile(file, options, read.pullRequest.headSha, errors, warnings));
    return { parsed: [{ pullRequest: read.pullRequest, comments }], warnings };
  }
  const parsed: ParsedPullRequest[] = [];
  for (const file of files) {
    const text = readText(file, errors);
    if (text !== null) parsed.push(...parsePullRequestBundle(text, file.name, errors));
  }
  const seen = new Map<string, ParsedPullRequest>();
  for (const entry of parsed) {
    const earlier = seen.get(entry.pullRequest.externalId);
    if (earlier) errors.add(entry.pullRequest.at, "id", `pull request ${entry.pullRequest.externalId} is given twice (first in ${earlier.pullRequest.at.file}, line ${earlier.pullRequest.at.line})`);
    seen.set(entry.pullRequest.externalId, entry);
    const paths = new Set<string>();
    for (const file of entry.pullRequest.files) {
      if (paths.has(file.path)) errors.add(file.at, "path", `${file.path} is listed twice in pull request ${entry.pullRequest.externalId}`);
      paths.add(file.path);
    }
  }
  return { parsed, warnings };
}

/** Every comment's anchor and thread checked against its pull request's files; comments with errors are left out (and reported). */
export function checkPullRequestComments(parsed: readonly ParsedPullRequest[], stored: ReadonlyMap<string, StoredPullRequest>, errors: ErrorCollector): { rows: PullRequestRows[]; warnings: string[] } {
  const warnings: string[] = [];
  const rows = parsed.map(({ pullRequest, comments }) => {
    const check = checkAnchors(pullRequest, comments, errors, stored.get(pullRequest.externalId)?.commentIds);
    warnings.push(...check.warnings);
    return { pullRequest, comments: check.comments };
  });
  return { rows, warnings };
}
