/**
 * `npm run cli -- tools-report --study SLUG [--category KEY] [--match-lines K] [--json]`: the
 * test-based figures of the study's review systems from imported test outcomes, and their
 * comments' matching to the human reviewers' by the location matcher (docs/test-results.md).
 */
import { z } from "zod";
import { fieldFlag, optionalFlag, requireFlag, hasSwitch } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { studyToolsReport } from "@/lib/data/tools-report";

const command: Command = {
  name: "tools-report",
  usage: "tools-report --study SLUG [--category KEY] [--match-lines K] [--json]   (c-CRAB Table 5: per system instances, tests, passed, the micro and macro pass rates with bootstrap CIs over instances; Figure 5: the overlap of passed tests; Figure 7: pass rates per category of the human comment; matching recall and precision under the location matcher, comments within K lines, default 3)",
  async run(args) {
    hasSwitch(args, "json"); // the output is always JSON, as every command's
    return studyToolsReport(COMMAND_LINE, requireFlag(args, "study"), { category: optionalFlag(args, "category"), matchLines: fieldFlag(args, "match-lines", z.coerce.number().int("a whole number of lines").min(0).max(10_000)) });
  },
};
export default command;
