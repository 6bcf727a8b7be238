/**
 * `npm run cli -- assign --study SLUG --annotators EMAIL,... | --all-annotators`: generates the
 * study's assignments from its seeded plan for these annotators (as the assignments page does).
 */
import { CliError, hasSwitch, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { assignByEmail } from "@/lib/data/crowd";

const command: Command = {
  name: "assign",
  usage: "assign --study SLUG --annotators EMAIL,... | --all-annotators",
  async run(args) {
    const slug = requireFlag(args, "study");
    const emails = optionalFlag(args, "annotators");
    const all = hasSwitch(args, "all-annotators");
    if ((emails === undefined) === !all) throw new CliError("Give either --annotators EMAIL,... or --all-annotators");
    const summary = await assignByEmail(slug, all ? { allAnnotators: true } : { emails: emails!.split(",") });
    return { study: slug, ...summary };
  },
};
export default command;
