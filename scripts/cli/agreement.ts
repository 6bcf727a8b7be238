import { readFileSync } from "node:fs";
import path from "node:path";
import { CliError, hasSwitch, optionalFlag, requireFlag, type ParsedArgs } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import type { Level } from "@/lib/agreement";
import { agreementReport, findStudy, type ItemSetFilter, parseItemFile } from "@/lib/analysis";
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

/** `--items FILE`: one CHANGE_ID or CHANGE_ID/REVIEW_ID per line. */
export function itemsFlag(args: ParsedArgs): ItemSetFilter | undefined {
  const file = optionalFlag(args, "items");
  return file === undefined ? undefined : parseItemFile(path.basename(file), readFileSync(file, "utf8"));
}

const LEVELS: Level[] = ["nominal", "ordinal", "interval", "ratio"];

function alphaLevelsFlag(args: ParsedArgs): Level[] | undefined {
  const value = optionalFlag(args, "alpha-levels");
  if (value === undefined) return undefined;
  const levels = value.split(",").map((l) => l.trim());
  const unknown = levels.filter((l) => !LEVELS.includes(l as Level));
  if (unknown.length > 0) throw new CliError(`--alpha-levels: unknown level ${unknown.join(", ")}; levels: ${LEVELS.join(", ")}`);
  return levels as Level[];
}

const command: Command = {
  name: "agreement",
  usage: "agreement --study SLUG [--task T] [--items FILE] [--alpha-levels nominal,ratio] [--json] [--resamples N] [--seed S] [--batch-size N] [--reliability-set N]",
  async run(args) {
    hasSwitch(args, "json"); // the output is always the JSON report the dashboard renders
    const study = await findStudy({ slug: requireFlag(args, "study") });
    const task = optionalFlag(args, "task");
    return agreementReport(study.id, {
      task: task === undefined ? undefined : parseTask(task),
      bootstrap: { nResamples: integerFlag(args, "resamples"), seed: integerFlag(args, "seed") },
      batchSize: integerFlag(args, "batch-size"),
      reliabilitySetSize: integerFlag(args, "reliability-set"),
      items: itemsFlag(args),
      alphaLevels: alphaLevelsFlag(args),
    });
  },
};
export default command;
