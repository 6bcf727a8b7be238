import { CliError, hasSwitch, optionalFlag, requireFlag, type ParsedArgs } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { agreementReport, findStudy } from "@/lib/analysis";
import { TaskType } from "@/lib/generated/prisma/enums";

const TASKS = Object.values(TaskType);

/** `claim-verification` or `CLAIM_VERIFICATION`. */
export function parseTask(value: string): TaskType {
  const task = value.trim().toUpperCase().replace(/-/g, "_") as TaskType;
  if (!TASKS.includes(task)) throw new CliError(`unknown task "${value}"; tasks: ${TASKS.join(", ")}`);
  return task;
}

export function integerFlag(args: ParsedArgs, name: string): number | undefined {
  const value = optionalFlag(args, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new CliError(`--${name} must be a whole number, got "${value}"`);
  return n;
}

const command: Command = {
  name: "agreement",
  usage: "agreement --study SLUG [--task T] [--json] [--resamples N] [--seed S] [--batch-size N] [--reliability-set N]",
  async run(args) {
    hasSwitch(args, "json"); // the output is always the JSON report the dashboard renders
    const study = await findStudy({ slug: requireFlag(args, "study") });
    const task = optionalFlag(args, "task");
    return agreementReport(study.id, {
      task: task === undefined ? undefined : parseTask(task),
      bootstrap: { nResamples: integerFlag(args, "resamples"), seed: integerFlag(args, "seed") },
      batchSize: integerFlag(args, "batch-size"),
      reliabilitySetSize: integerFlag(args, "reliability-set"),
    });
  },
};
export default command;
