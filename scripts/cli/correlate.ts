import { CliError, hasSwitch, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { correlationReport, findStudy } from "@/lib/analysis";
import { integerFlag, itemSetFlags } from "./agreement";

const command: Command = {
  name: "correlate",
  usage: "correlate --study SLUG --metric M --human Q [--level segment|system] [--params KEY] [--include-references] [--include-drafts] [--items FILE | --item-set NAME] [--resamples N] [--seed S] [--json]",
  async run(args) {
    hasSwitch(args, "json"); // the output is always the JSON report the dashboard renders
    const study = await findStudy({ slug: requireFlag(args, "study") });
    const level = optionalFlag(args, "level") ?? "segment";
    if (level !== "segment" && level !== "system") throw new CliError(`--level must be segment or system, got "${level}"`);
    return correlationReport(study.id, {
      metric: requireFlag(args, "metric"),
      human: requireFlag(args, "human"),
      level,
      paramsKey: optionalFlag(args, "params"),
      includeReferences: hasSwitch(args, "include-references"),
      includeDrafts: hasSwitch(args, "include-drafts"),
      items: (await itemSetFlags(args, study.slug)).items,
      bootstrap: { nResamples: integerFlag(args, "resamples"), seed: integerFlag(args, "seed") },
    });
  },
};
export default command;
