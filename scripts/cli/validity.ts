import { fieldFlag, hasSwitch, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { validityReport } from "@/lib/data/reports";
import { requireStudy } from "@/lib/data/studies";
import { correlationLevelField } from "@/lib/validation/report-options";
import { bootstrapFlags, itemSetFlags } from "./agreement";

const command: Command = {
  name: "validity",
  usage: "validity --study SLUG --metric M --human Q [--level review|system] [--signature S] [--include-references] [--include-drafts] [--items FILE | --item-set NAME] [--resamples N] [--seed S] [--json]",
  async run(args) {
    hasSwitch(args, "json"); // the output is always the JSON report the dashboard renders
    const study = await requireStudy({ slug: requireFlag(args, "study") });
    const level = fieldFlag(args, "level", correlationLevelField) ?? "review";
    return validityReport(study.id, {
      metric: requireFlag(args, "metric"),
      human: requireFlag(args, "human"),
      level,
      signature: optionalFlag(args, "signature"),
      includeReferences: hasSwitch(args, "include-references"),
      includeDrafts: hasSwitch(args, "include-drafts"),
      items: (await itemSetFlags(args, study.slug)).items,
      bootstrap: bootstrapFlags(args),
    });
  },
};
export default command;
