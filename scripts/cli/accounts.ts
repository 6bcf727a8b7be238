/** `npm run cli -- accounts [--json]`: every account (id, email, role, active, studies) for operators. */
import { hasSwitch } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { listAccountsWithStudies } from "@/lib/data/accounts";

const command: Command = {
  name: "accounts",
  usage: "accounts [--json]",
  async run(args) {
    hasSwitch(args, "json"); // the output is always JSON, as every command's
    return listAccountsWithStudies();
  },
};
export default command;
