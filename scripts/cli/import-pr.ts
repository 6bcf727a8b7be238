/**
 * `npm run cli -- import-pr --study SLUG --repo PATH --base REV --head REV [--url URL]
 * [--title T] [--description D] [--id ID] --comments FILE [FILE...]`: a pull request from a local
 * git repository (working or bare; the three-dot diff base...head) with its review comments, in
 * one transaction like every import (docs/pull-request-formats.md).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { CliError, hasSwitch, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { COMMENTS_FORMATS, formatImportErrors, type CommentsFormat } from "@/lib/import";
import { previewImport, runImport } from "@/lib/data/imports";

const SWITCHES = ["update", "dry-run", "skip-invalid-rows"];

const command: Command = {
  name: "import-pr",
  usage: `import-pr --study SLUG --repo PATH --base REV --head REV [--url URL] [--title T] [--description D] [--id ID] --comments FILE [FILE...] [--system NAME] [--comments-format ${COMMENTS_FORMATS.join("|")}] [--update] [--dry-run] [--skip-invalid-rows]`,
  async run(args) {
    // A switch written before a file (`--update b.json`) does not swallow the file.
    const swallowed = SWITCHES.map((s) => args.flags.get(s)).filter((v): v is string => typeof v === "string");
    const comments = [requireFlag(args, "comments"), ...swallowed, ...args.positional];
    const commentsFormat = optionalFlag(args, "comments-format");
    if (commentsFormat !== undefined && !COMMENTS_FORMATS.includes(commentsFormat as CommentsFormat)) throw new CliError(`--comments-format: expected one of ${COMMENTS_FORMATS.join(", ")}`);
    const request = {
      study: requireFlag(args, "study"),
      format: "pull-request" as const,
      files: comments.map((p) => ({ name: path.basename(p), content: readFileSync(p) })),
      pullRequest: {
        git: { repo: requireFlag(args, "repo"), base: requireFlag(args, "base"), head: requireFlag(args, "head"), url: optionalFlag(args, "url"), title: optionalFlag(args, "title"), description: optionalFlag(args, "description"), id: optionalFlag(args, "id") },
        system: optionalFlag(args, "system"),
        commentsFormat: commentsFormat as CommentsFormat | undefined,
      },
      update: hasSwitch(args, "update"),
      skipInvalidRows: hasSwitch(args, "skip-invalid-rows"),
    };
    const result = hasSwitch(args, "dry-run") ? await previewImport(request) : await runImport(request);
    if (result.status === "refused") throw new Error(`import refused, nothing was written:\n${formatImportErrors(result.errors, result.totalErrors)}`);
    return { status: result.status, ...result.summary };
  },
};
export default command;
