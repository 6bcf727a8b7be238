/**
 * `npm run cli -- create-user --email E --role R [--name N] [--password P]`: one account;
 * `create-user --from-csv FILE`: many accounts (columns email, role, name, password) in one
 * transaction, printing the passwords generated for rows without one.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { createUsersFromCsv } from "@/lib/data/crowd";
import { createUser } from "@/lib/data/users";

const command: Command = {
  name: "create-user",
  usage: "create-user --email E --role ADMIN|LEAD|ANNOTATOR [--name N] [--password P] | create-user --from-csv FILE (columns email, role, name, password)",
  async run(args) {
    const csv = optionalFlag(args, "from-csv");
    if (csv !== undefined) {
      const accounts = await createUsersFromCsv({ name: path.basename(csv), content: readFileSync(csv) });
      return { created: accounts.length, accounts };
    }
    const role = requireFlag(args, "role").toUpperCase();
    const user = await createUser({
      email: requireFlag(args, "email"),
      role: role as "ADMIN" | "LEAD" | "ANNOTATOR",
      name: optionalFlag(args, "name"),
      password: optionalFlag(args, "password"),
    });
    return { id: user.id, email: user.email, name: user.name, role: user.role, active: user.active };
  },
};
export default command;
