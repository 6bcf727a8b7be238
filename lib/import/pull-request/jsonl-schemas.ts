/**
 * The product's own pull-request formats (docs/pull-request-formats.md), in JSON Lines:
 * - a comments file: one review comment per line;
 * - a pull-request bundle: a `pullRequest` line, then its `file` lines (with contents) and its
 *   `comment` lines, for studies without a clone of the repository. Several pull requests may
 *   follow one another, each with its own lines.
 */
import { z } from "zod";
import { DiffSide, FileStatus } from "@/lib/generated/prisma/enums";
import { MAX_TEXT_CHARS } from "../text";

const text = z.string().max(MAX_TEXT_CHARS);
const id = z.union([z.string().trim().min(1).max(500), z.int().min(0)]).transform(String);
const line = z.int().min(1).max(2 ** 31 - 1);
const metadata = z.record(z.string(), z.json()).nullable().optional();

const reviewCommentFields = z.strictObject({
  id: id.describe("The comment's id (GitHub's id, or any id unique within the pull request)"),
  path: z.string().min(1).max(1000).describe("The file: its new path, a deleted file's old path"),
  side: z.enum(DiffSide).nullable().optional().describe("LEFT: line of the old file; RIGHT (default): of the new file"),
  startSide: z.enum(DiffSide).nullable().optional(),
  startLine: line.nullable().optional().describe("First line of a range"),
  line: line.nullable().optional().describe("The (last) line; null or absent: the whole file"),
  body: text.describe("Markdown"),
  system: z.string().trim().min(1).max(200).describe("Tool and model, or \"human\""),
  author: z.string().max(200).nullable().optional().describe("The login that posted it"),
  inReplyToId: id.nullable().optional().describe("Id of the comment this one answers"),
  metadata,
  testPath: z.string().trim().min(1).max(1000).nullable().optional().describe("A linked test's file (c-CRAB §4.4.3)"),
  testText: text.nullable().optional().describe("The linked test's text"),
});

/** A linked test has both its file and its text, or neither is given. */
function linkedTest(line: { testPath?: string | null; testText?: string | null }, ctx: z.RefinementCtx): void {
  const path = line.testPath ?? null;
  const text = line.testText ?? null;
  if (path !== null && text === null) ctx.addIssue({ code: "custom", path: ["testText"], message: "a linked test needs its text (testText) beside its file (testPath)" });
  if (path === null && text !== null) ctx.addIssue({ code: "custom", path: ["testPath"], message: "a linked test needs its file (testPath) beside its text (testText)" });
  if (text !== null && text.trim() === "") ctx.addIssue({ code: "custom", path: ["testText"], message: "the linked test's text is empty" });
}

export const reviewCommentSchema = reviewCommentFields.superRefine(linkedTest);

export const bundleCommentSchema = reviewCommentFields.extend({ type: z.literal("comment") }).superRefine(linkedTest);

export const bundlePullRequestSchema = z.strictObject({
  type: z.literal("pullRequest"),
  id: z.string().trim().min(1).max(500),
  repository: z.string().max(500).nullable().optional(),
  url: z.string().max(2000).nullable().optional(),
  title: text.nullable().optional(),
  description: text.nullable().optional(),
  baseSha: z.string().max(100).nullable().optional(),
  headSha: z.string().max(100).nullable().optional(),
  mergeBaseSha: z.string().max(100).nullable().optional(),
  metadata,
});

export const bundleFileSchema = z.strictObject({
  type: z.literal("file"),
  status: z.enum(FileStatus),
  path: z.string().min(1).max(1000).describe("The new path; a deleted file's old path"),
  oldPath: z.string().min(1).max(1000).nullable().optional().describe("The path before the change (a renamed file's); defaults to path, none for an added file"),
  binary: z.boolean().optional(),
  oldContents: text.nullable().optional(),
  newContents: text.nullable().optional(),
  diff: text.nullable().optional().describe("The file's unified diff; made from the contents when absent"),
});

export type ReviewCommentLine = z.output<typeof reviewCommentSchema>;
