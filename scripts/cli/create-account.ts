/**
 * `npm run cli -- create-account --email E --role R [--name N] [--password P]`: one account;
 * `create-account --from-csv FILE`: many accounts (columns email, role, name, password) in one
 * transaction, printing the passwords generated for rows without one.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { addAccountsFromCsv } from "@/lib/data/crowd";
import { addAccount } from "@/lib/data/accounts";

const command: Command = {
  name: "create-account",
  usage: "create-account --email E --role ADMIN|LEAD|ANNOTATOR [--name N] [--password P] | create-account --from-csv FILE (columns email, role, name, password)",
  async run(args) {
    const csv = optionalFlag(args, "from-csv");
    if (csv !== undefined) {
      const accounts = await addAccountsFromCsv({ name: path.basename(csv), content: readFileSync(csv) });
      return { created: accounts.length, accounts };
    }
    const role = requireFlag(args, "role").toUpperCase();
    const account = await addAccount({
      email: requireFlag(args, "email"),
      role: role as "ADMIN" | "LEAD" | "ANNOTATOR",
      name: optionalFlag(args, "name"),
      password: optionalFlag(args, "password"),
    });
    return { id: account.id, email: account.email, name: account.name, role: account.role, active: account.active };
  },
};
export default command;
