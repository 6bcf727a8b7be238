import { optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { commentSystemTables } from "@/lib/data/comment-systems";

const command: Command = {
  name: "comment-systems",
  usage: "comment-systems --study SLUG [--useful KEY] [--category KEY]   (c-CRAB Table 6: comments, useful and useful % per system with Wilson CIs; Figure 6: categories per system beside the human reviewers', from the consensus of comment questions)",
  async run(args) {
    return commentSystemTables(COMMAND_LINE, requireFlag(args, "study"), { useful: optionalFlag(args, "useful"), category: optionalFlag(args, "category") });
  },
};
export default command;
