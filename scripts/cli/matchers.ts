/**
 * `npm run cli -- matchers --study SLUG [--k K]`: a run of the location matcher over the study's
 * review comments, computed now and stored with its signature and pairs; prints the run and its
 * matching (recall, precision, and its scores against the annotators' matching) as the tools
 * report reads it. `--list`: the study's matcher runs, newest first (docs/test-results.md).
 */
import { z } from "zod";
import { CliError, fieldFlag, hasSwitch, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { ledStudyMatcherRuns } from "@/lib/data/matcher-runs";
import { DEFAULT_MATCH_LINES, studyToolsReport } from "@/lib/data/tools-report";
import { runLocationMatcher } from "@/lib/matcher-runs/run";

const command: Command = {
  name: "matchers",
  usage: "matchers --study SLUG [--k K] [--list]   (runs the location matcher, comments within K lines, default 3, and stores the run with its signature and pairs; prints its recall, precision and scores against the annotators' matching; --list: the study's matcher runs)",
  async run(args) {
    const slug = requireFlag(args, "study");
    if (hasSwitch(args, "list")) return { runs: await ledStudyMatcherRuns(COMMAND_LINE, slug) };
    const k = fieldFlag(args, "k", z.coerce.number().int("a whole number of lines").min(0).max(10_000)) ?? DEFAULT_MATCH_LINES;
    const run = await runLocationMatcher(COMMAND_LINE, slug, k);
    if (run.status === "FAILED") throw new CliError(`the matcher run ${run.id} failed: ${run.error}`);
    const report = await studyToolsReport(COMMAND_LINE, slug);
    return { run, matching: report.matcherRuns.find((m) => m.run.id === run.id) ?? null };
  },
};
export default command;
