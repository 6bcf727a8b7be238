import type { Command } from "@/lib/cli/command";
import { db } from "@/lib/db/client";
import { seedDemo } from "@/lib/data/demo-study";

/** Creates the demo study (and its two annotator accounts) unless it exists; prints what the study holds. */
const command: Command = {
  name: "seed-demo",
  usage: "seed-demo",
  run: () => seedDemo(db),
};
export default command;
