/**
 * `npm run cli -- import-test-results --study SLUG [--system NAME] [--pr PR] FILE...`: systems'
 * (--tool NAME is accepted as another name for --system: c-CRAB says "tool")
 * test outcomes for pull requests (their id or URL) from JUnit XML files (for the --system and
 * --pr given) or the outcomes JSONL, replacing each system's earlier outcomes for each pull
 * request, in one transaction (docs/test-results.md).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { CliError, optionalFlag, requireFlag, type ParsedArgs } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { formatImportErrors } from "@/lib/import";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { importTestResults } from "@/lib/data/test-outcomes";

/** --system, or --tool (c-CRAB's word for a system), not both with different values. */
function systemFlag(args: ParsedArgs): string | undefined {
  const system = optionalFlag(args, "system");
  const tool = optionalFlag(args, "tool");
  if (system !== undefined && tool !== undefined && system !== tool) throw new CliError(`--system "${system}" and --tool "${tool}" differ: --tool is another name for --system, give one`);
  return system ?? tool;
}

const command: Command = {
  name: "import-test-results",
  usage: "import-test-results --study SLUG [--system NAME] [--pr PR] FILE...   (--tool NAME: another name for --system; JUnit XML from pytest, Jest, Maven Surefire or Go, of the --system and --pr given; or the outcomes JSONL; PR: the pull request's id or URL)",
  async run(args) {
    if (args.positional.length === 0) throw new CliError("Name at least one FILE of test results");
    const result = await importTestResults(COMMAND_LINE, {
      study: requireFlag(args, "study"),
      system: systemFlag(args),
      pullRequest: optionalFlag(args, "pr"),
      files: args.positional.map((p) => ({ name: path.basename(p), content: readFileSync(p) })),
    });
    if (result.status === "refused") throw new Error(`import refused, nothing was written:\n${formatImportErrors(result.errors, result.totalErrors)}`);
    return result.summary;
  },
};
export default command;
