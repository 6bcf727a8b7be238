/**
 * The product's comments JSONL and pull-request bundle JSONL (jsonl-schemas.ts): lines checked
 * against their schema, every error with its line and field.
 */
import type { z } from "zod";
import { DiffParseError, parseUnifiedDiff, unifiedDiff } from "@/lib/diff";
import type { JsonObject } from "../bundle";
import type { ErrorCollector, SourceLocation } from "../errors";
import { jsonPath } from "../jsonl";
import { bundleCommentSchema, bundleFileSchema, bundlePullRequestSchema, reviewCommentSchema, type ReviewCommentLine } from "./jsonl-schemas";
import type { PullRequestFileInput, PullRequestInput, ReviewCommentInput } from "./types";

/** Each non-empty line's JSON value with its line number; a line that is not JSON is reported. */
function jsonLines(text: string, file: string, errors: ErrorCollector): { value: unknown; at: SourceLocation }[] {
  const lines: { value: unknown; at: SourceLocation }[] = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    const at = { file, line: i + 1 };
    try {
      lines.push({ value: JSON.parse(raw) as unknown, at });
    } catch (error) {
      errors.add(at, undefined, `not valid JSON: ${(error as Error).message}`);
    }
  });
  return lines;
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, at: SourceLocation, errors: ErrorCollector): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) errors.add(at, issue.path.length === 0 ? undefined : jsonPath(issue.path), issue.message);
  return undefined;
}

function commentOfLine(line: ReviewCommentLine, at: SourceLocation): ReviewCommentInput {
  const side = line.side ?? "RIGHT";
  const startLine = line.startLine ?? null;
  return {
    externalId: line.id,
    path: line.path,
    anchor: line.line === null || line.line === undefined ? { kind: "file", side: line.side ?? null } : { kind: "lines", side, line: line.line, startLine, startSide: startLine === null ? null : (line.startSide ?? side) },
    body: line.body,
    system: line.system,
    author: line.author ?? "",
    inReplyTo: line.inReplyToId ?? null,
    metadata: (line.metadata ?? {}) as JsonObject,
    test: line.testPath && line.testText ? { path: line.testPath, text: line.testText } : null,
    at,
  };
}

/** A comments JSONL file: one review comment per line. */
export function parseCommentsJsonl(text: string, file: string, errors: ErrorCollector): ReviewCommentInput[] {
  const comments: ReviewCommentInput[] = [];
  for (const { value, at } of jsonLines(text, file, errors)) {
    const line = parsed(reviewCommentSchema, value, at, errors);
    if (line) comments.push(commentOfLine(line, at));
  }
  return comments;
}

/** A bundle's file line as a pull request's file: its diff checked, or made from its contents. */
function fileOfLine(line: z.output<typeof bundleFileSchema>, at: SourceLocation, errors: ErrorCollector): PullRequestFileInput | undefined {
  const binary = line.binary ?? false;
  const oldContents = line.oldContents ?? null;
  const newContents = line.newContents ?? null;
  const before = errors.total;
  if (binary && (oldContents !== null || newContents !== null || line.diff)) errors.add(at, "binary", "a binary file is listed without contents or diff");
  if (line.status === "ADDED" && oldContents !== null) errors.add(at, "oldContents", "an added file has no old contents");
  if (line.status === "DELETED" && newContents !== null) errors.add(at, "newContents", "a deleted file has no new contents");
  if (line.status === "ADDED" && line.oldPath) errors.add(at, "oldPath", "an added file has no old path");
  if (errors.total > before) return undefined;
  let diff = line.diff ?? "";
  if (diff !== "") {
    try {
      parseUnifiedDiff(diff);
    } catch (error) {
      if (!(error instanceof DiffParseError)) throw error;
      errors.add(at, "diff", `the diff cannot be read (${error.message})`);
      return undefined;
    }
  } else if (!binary && (oldContents ?? "") !== (newContents ?? "")) diff = unifiedDiff(oldContents ?? "", newContents ?? "", { path: line.path });
  return { status: line.status, path: line.path, oldPath: line.status === "ADDED" ? null : (line.oldPath ?? line.path), binary, oldContents, newContents, diff, at };
}

/** A pull-request bundle: each `pullRequest` line with the `file` and `comment` lines after it. */
export function parsePullRequestBundle(text: string, file: string, errors: ErrorCollector): { pullRequest: PullRequestInput; comments: ReviewCommentInput[] }[] {
  const bundles: { pullRequest: PullRequestInput; comments: ReviewCommentInput[]; valid: boolean }[] = [];
  for (const { value, at } of jsonLines(text, file, errors)) {
    const type = (value as { type?: unknown } | null)?.type;
    const current = bundles.at(-1);
    if (type === "pullRequest") {
      const line = parsed(bundlePullRequestSchema, value, at, errors);
      const pullRequest: PullRequestInput = {
        externalId: line?.id ?? `(line ${at.line})`,
        repository: line?.repository ?? "",
        url: line?.url ?? "",
        title: line?.title ?? "",
        description: line?.description ?? "",
        baseSha: line?.baseSha ?? "",
        headSha: line?.headSha ?? "",
        mergeBaseSha: line?.mergeBaseSha ?? "",
        metadata: (line?.metadata ?? {}) as JsonObject,
        files: [],
        at,
      };
      // A pull request line in error takes its files and comments with it (they are read, and their errors reported, all the same).
      bundles.push({ pullRequest, comments: [], valid: line !== undefined });
    } else if (type === "file" || type === "comment") {
      if (!current) {
        errors.add(at, "type", `a ${type} line comes before any pullRequest line: it belongs to the pull request above it`);
        continue;
      }
      if (type === "file") {
        const line = parsed(bundleFileSchema, value, at, errors);
        const prFile = line && fileOfLine(line, at, errors);
        if (prFile) current.pullRequest.files.push(prFile);
      } else {
        const line = parsed(bundleCommentSchema, value, at, errors);
        if (line) current.comments.push(commentOfLine(line, at));
      }
    } else errors.add(at, "type", `expected "pullRequest", "file" or "comment", not ${JSON.stringify(type)}`);
  }
  if (bundles.length === 0 && errors.empty) errors.add({ file }, undefined, "no pullRequest line: a bundle starts with the pull request, then its files and comments");
  return bundles.filter((b) => b.valid).map(({ pullRequest, comments }) => ({ pullRequest, comments }));
}
