/**
 * `npm run cli -- import-test-results --study SLUG --system NAME --pr PR FILE...`: one system's
 * test outcomes for one pull request (its id or URL) from JUnit XML files, replacing that
 * system's earlier outcomes for it, in one transaction (docs/test-results.md).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { CliError, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { formatImportErrors } from "@/lib/import";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { importTestResults } from "@/lib/data/test-outcomes";

const command: Command = {
  name: "import-test-results",
  usage: "import-test-results --study SLUG --system NAME --pr PR FILE...   (JUnit XML from pytest, Jest, Maven Surefire or Go; PR: the pull request's id or URL)",
  async run(args) {
    if (args.positional.length === 0) throw new CliError("Name at least one JUnit XML FILE");
    const result = await importTestResults(COMMAND_LINE, {
      study: requireFlag(args, "study"),
      system: requireFlag(args, "system"),
      pullRequest: requireFlag(args, "pr"),
      files: args.positional.map((p) => ({ name: path.basename(p), content: readFileSync(p) })),
    });
    if (result.status === "refused") throw new Error(`import refused, nothing was written:\n${formatImportErrors(result.errors, result.totalErrors)}`);
    return result.summary;
  },
};
export default command;
