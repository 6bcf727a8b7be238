import { readFileSync } from "node:fs";
import path from "node:path";
import { CliError, hasSwitch, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { requireStudy } from "@/lib/data/studies";
import { importMetricScores } from "@/lib/import/metric-scores";

const command: Command = {
  name: "import-scores",
  usage: "import-scores --study SLUG FILE.csv|FILE.jsonl [--signature S] [--replace]   (columns: review_id, metric, value; optional change_id, params)",
  async run(args) {
    const study = await requireStudy({ slug: requireFlag(args, "study") });
    const [file, ...extra] = args.positional;
    if (!file || extra.length > 0) throw new CliError("give exactly one score file");
    return importMetricScores(study.id, { name: path.basename(file), content: readFileSync(file) }, { signature: optionalFlag(args, "signature"), replace: hasSwitch(args, "replace") });
  },
};
export default command;
