import { readFileSync } from "node:fs";
import { CliError, hasSwitch, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { TaskType } from "@/lib/generated/prisma/enums";
import { requireStudy } from "@/lib/data/studies";
import { judgeRunSummary } from "@/lib/data/judge-runs";
import { runJudge } from "@/lib/judge-runs/run";

const command: Command = {
  name: "judge",
  usage:
    "judge --study SLUG --task TASK --question Q --model M [--prompt-version V | --prompt FILE] [--temperature T] [--seed N] [--trials K] [--concurrency N] [--name NAME] [--budget-usd D] [--budget-tokens N] [--in-consensus]   (an LLM judge answers the question on every item as the rater judge:NAME, over LLM_URL; resumable: the same run again answers only what is left, from the cache)",
  async run(args) {
    const num = (name: string, integer: boolean): number | undefined => {
      const value = optionalFlag(args, name);
      if (value === undefined) return undefined;
      const n = Number(value);
      if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) throw new CliError(`--${name} must be ${integer ? "an integer" : "a number"}, got "${value}"`);
      return n;
    };
    const task = requireFlag(args, "task").toUpperCase().replace(/-/g, "_");
    if (!(task in TaskType)) throw new CliError(`--task must be one of ${Object.keys(TaskType).join(", ")}, got "${requireFlag(args, "task")}"`);
    const study = await requireStudy({ slug: requireFlag(args, "study") });
    const file = optionalFlag(args, "prompt");
    let prompt: string | undefined;
    if (file !== undefined) {
      try {
        prompt = readFileSync(file, "utf8");
      } catch (error) {
        throw new CliError(`--prompt: cannot read ${file}: ${(error as Error).message}`);
      }
    }
    const t0 = performance.now();
    const { run, resumed } = await runJudge({
      study: study.slug,
      task: task as TaskType,
      question: requireFlag(args, "question"),
      name: optionalFlag(args, "name"),
      prompt,
      promptVersion: optionalFlag(args, "prompt-version"),
      temperature: num("temperature", false),
      seed: num("seed", true),
      trials: num("trials", true),
      concurrency: num("concurrency", true),
      budgetUsd: num("budget-usd", false),
      budgetTokens: num("budget-tokens", true),
      inConsensus: hasSwitch(args, "in-consensus"),
      llm: { model: requireFlag(args, "model") },
      onProgress: ({ done, total }) => {
        const line = `judge: ${done}/${total} items`;
        process.stderr.write(process.stderr.isTTY ? `\r${line}${done >= total ? "\n" : ""}` : `${line}\n`);
      },
    });
    return { study: study.slug, resumed, ...(await judgeRunSummary(run.id)), seconds: Number(((performance.now() - t0) / 1000).toFixed(3)) };
  },
};
export default command;
