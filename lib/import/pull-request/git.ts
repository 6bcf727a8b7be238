/**
 * A pull request read from a local git repository, working or bare, through the `git` binary
 * (no network): its files are the three-dot diff base...head, from the merge base of base and
 * head to head, as GitHub shows a pull request, with renames detected; binary files are listed
 * without contents or diff.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { decodeUtf8, MAX_TEXT_CHARS } from "../text";
import { isBinaryPatch, parseCatFileBatch, parseRawDiff, splitPatch } from "./git-output";
import type { PullRequestFileInput, PullRequestInput } from "./types";

export interface GitPullRequestOptions {
  repo: string;
  base: string;
  head: string;
  /** The pull request's id in the study; from the URL (owner/name#number) or the repository and head otherwise. */
  id?: string;
  url?: string;
  title?: string;
  description?: string;
}

/** git's output, or an error naming the command and what git said. */
function git(repo: string, args: string[], input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile("git", ["-C", repo, "-c", "core.quotePath=false", ...args], { encoding: "buffer", maxBuffer: 2 ** 30, env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1" } }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return reject(new AppError("INVALID_INPUT", { message: "git is not installed: import-pr runs the git binary" }));
      const said = stderr.toString("utf8").trim().split("\n")[0] || error.message;
      reject(new AppError("INVALID_INPUT", { message: `git ${args[0]} in ${repo}: ${said}` }));
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** The full hash of a commit, or an error naming the flag and the revision. */
async function commitOf(repo: string, revision: string, flag: string): Promise<string> {
  try {
    return (await git(repo, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${revision}^{commit}`])).toString("utf8").trim();
  } catch {
    throw new AppError("INVALID_INPUT", { message: `--${flag} ${revision}: no such commit in ${repo}` });
  }
}

/** owner/name and owner/name#number from a GitHub pull request URL. */
function fromUrl(url: string | undefined): { repository: string; id: string } | null {
  const match = /github\.com\/([^/]+\/[^/]+)\/pull\/(\d+)/.exec(url ?? "");
  return match ? { repository: match[1], id: `${match[1]}#${match[2]}` } : null;
}

/** A blob's text, or null when it is not UTF-8 text or too long to show (then the file is listed as binary). */
function textOf(blob: Buffer | undefined): string | null {
  if (!blob || blob.includes(0)) return null;
  const decoded = decodeUtf8(blob);
  return decoded.ok && decoded.text.length <= MAX_TEXT_CHARS ? decoded.text : null;
}

/** The pull request base...head of the repository, with every changed file; `warnings` says which files are listed as binary and why. */
export async function readGitPullRequest(options: GitPullRequestOptions): Promise<{ pullRequest: PullRequestInput; warnings: string[] }> {
  const repo = path.resolve(options.repo);
  const baseSha = await commitOf(repo, options.base, "base");
  const headSha = await commitOf(repo, options.head, "head");
  const mergeBaseSha = (await git(repo, ["merge-base", baseSha, headSha]).catch(() => {
    throw new AppError("INVALID_INPUT", { message: `--base ${options.base} and --head ${options.head} have no common ancestor in ${repo}` });
  }))
    .toString("utf8")
    .trim();
  const range = [mergeBaseSha, headSha];
  const raw = parseRawDiff((await git(repo, ["diff", "--raw", "-z", "-M", "--no-abbrev", "--no-ext-diff", ...range])).toString("utf8"));
  const patches = splitPatch((await git(repo, ["diff", "-M", "-p", "--no-color", "--no-ext-diff", "--full-index", "-U3", ...range])).toString("utf8"));
  const blobs = [...new Set(raw.filter((e) => !e.gitlink).flatMap((e) => [e.oldBlob, e.newBlob]).filter((b): b is string => b !== null))];
  const contents = blobs.length === 0 ? new Map<string, Buffer>() : parseCatFileBatch(await git(repo, ["cat-file", "--batch"], `${blobs.join("\n")}\n`));
  const warnings: string[] = [];
  const at = { file: repo };
  const files = raw.map((entry, i): PullRequestFileInput => {
    const patch = patches[i] ?? "";
    const oldText = entry.oldBlob ? textOf(contents.get(entry.oldBlob)) : null;
    const newText = entry.newBlob ? textOf(contents.get(entry.newBlob)) : null;
    const binary = entry.gitlink || isBinaryPatch(patch) || (entry.oldBlob !== null && oldText === null) || (entry.newBlob !== null && newText === null);
    if (binary && !entry.gitlink && !isBinaryPatch(patch)) warnings.push(`${entry.path}: not UTF-8 text, or longer than ${MAX_TEXT_CHARS} characters: listed as a binary file, without contents or diff`);
    const diffStart = patch.search(/^(---|@@) /m);
    return {
      status: entry.status,
      path: entry.status === "DELETED" ? (entry.oldPath ?? entry.path) : entry.path,
      oldPath: entry.oldPath,
      binary,
      oldContents: binary ? null : oldText,
      newContents: binary ? null : newText,
      diff: binary || diffStart < 0 ? "" : patch,
      at,
    };
  });
  const url = fromUrl(options.url);
  return {
    pullRequest: {
      externalId: options.id ?? url?.id ?? `${path.basename(repo).replace(/\.git$/, "")}@${headSha.slice(0, 12)}`,
      repository: url?.repository ?? path.basename(repo).replace(/\.git$/, ""),
      url: options.url ?? "",
      title: options.title ?? "",
      description: options.description ?? "",
      baseSha,
      headSha,
      mergeBaseSha,
      metadata: {},
      files,
      at,
    },
    warnings,
  };
}
