import { readFileSync } from "node:fs";
import { CliError, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { TaskType } from "@/lib/generated/prisma/enums";
import { requireStudy } from "@/lib/data/studies";
import { addPromptVersion, promptVersions } from "@/lib/data/prompt-templates";
import { judgeQuestion } from "@/lib/judges/questions";

const command: Command = {
  name: "judge-prompts",
  usage: "judge-prompts --study SLUG --task TASK --question Q [--add FILE]   (the versions of a judge rater's prompt for the question, the study's own and the shipped presets; --add stores FILE's text as a version)",
  async run(args) {
    const task = requireFlag(args, "task").toUpperCase().replace(/-/g, "_");
    if (!(task in TaskType)) throw new CliError(`--task must be one of ${Object.keys(TaskType).join(", ")}, got "${requireFlag(args, "task")}"`);
    const study = await requireStudy({ slug: requireFlag(args, "study") });
    const question = judgeQuestion(task as TaskType, requireFlag(args, "question"), study);
    const file = optionalFlag(args, "add");
    let added: string | undefined;
    if (file !== undefined) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        throw new CliError(`--add: cannot read ${file}: ${(error as Error).message}`);
      }
      added = (await addPromptVersion(study.id, question, text)).version;
    }
    return { study: study.slug, task, question: question.key, ...(added ? { added } : {}), versions: await promptVersions(study.id, question) };
  },
};
export default command;
