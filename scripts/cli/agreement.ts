import { readFileSync } from "node:fs";
import path from "node:path";
import { CliError, fieldFlag, hasSwitch, optionalFlag, requireFlag, type ParsedArgs } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import type { Level } from "@/lib/agreement";
import { type ItemSetFilter, parseItemFile } from "@/lib/analysis";
import { agreementReport } from "@/lib/data/reports";
import { requireStudy } from "@/lib/data/studies";
import { reportItemSets } from "@/lib/data/item-sets";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { windowSizeField, itemSetField, resamplesField, seedField, taskField } from "@/lib/validation/report-options";

/** --resamples and --seed: the reports' bootstrap. */
export function bootstrapFlags(args: ParsedArgs): { nResamples?: number; seed?: number } {
  return { nResamples: fieldFlag(args, "resamples", resamplesField), seed: fieldFlag(args, "seed", seedField) };
}

/**
 * The item sets of a report: `--items FILE` (one CODE_CHANGE_ID, CODE_CHANGE_ID/REVIEW_ID or CODE_CHANGE_ID/CLAIM_ID
 * per line) or `--item-set NAME` (a stored set), and the study's reliability set.
 */
export async function itemSetFlags(args: ParsedArgs, slug: string): Promise<{ items?: ItemSetFilter; reliabilitySet?: ItemSetFilter }> {
  const file = optionalFlag(args, "items");
  const name = fieldFlag(args, "item-set", itemSetField);
  if (file !== undefined && name !== undefined) throw new CliError("Give either --items FILE or --item-set NAME, not both");
  const sets = await reportItemSets(COMMAND_LINE, slug, name);
  return file === undefined ? sets : { ...sets, items: parseItemFile(path.basename(file), readFileSync(file, "utf8")) };
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

/** --judge-weights: the judges section's κ, unweighted as SWE-Judge §5.2 unless quadratic is asked for. */
function judgeWeightsFlag(args: ParsedArgs): "unweighted" | "quadratic" | undefined {
  const value = optionalFlag(args, "judge-weights");
  if (value === undefined || value === "unweighted" || value === "quadratic") return value;
  throw new CliError(`--judge-weights must be unweighted or quadratic, got "${value}"`);
}

const command: Command = {
  name: "agreement",
  usage: "agreement --study SLUG [--task T] [--items FILE | --item-set NAME] [--alpha-levels nominal,ratio] [--include-drafts] [--include-gold] [--json] [--resamples N] [--seed S] [--window-size N] [--judge-weights unweighted|quadratic]",
  async run(args) {
    hasSwitch(args, "json"); // the output is always the JSON report the dashboard renders
    const study = await requireStudy({ slug: requireFlag(args, "study") });
    return agreementReport(study.id, {
      task: fieldFlag(args, "task", taskField),
      bootstrap: bootstrapFlags(args),
      windowSize: fieldFlag(args, "window-size", windowSizeField),
      ...(await itemSetFlags(args, study.slug)),
      alphaLevels: alphaLevelsFlag(args),
      includeDrafts: hasSwitch(args, "include-drafts"),
      // gold items (known answers, lib/data/gold) are left out unless asked for, as on the page
      includeGold: hasSwitch(args, "include-gold"),
      judgeWeights: judgeWeightsFlag(args),
    });
  },
};
export default command;
