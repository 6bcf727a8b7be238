import { requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { table4Report } from "@/lib/analysis";
import { requireStudy } from "@/lib/data/studies";

const command: Command = {
  name: "crscore-table4",
  usage: "crscore-table4 --study SLUG   (CRScore Table 4: precision, recall and F1 of the similarity threshold against the stage-2 claim links, at the Table 18 grid, the calibrated τ and τ_best)",
  async run(args) {
    const study = await requireStudy({ slug: requireFlag(args, "study") });
    return { study: study.slug, ...(await table4Report(study.id)) };
  },
};
export default command;
