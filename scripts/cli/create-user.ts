import { optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { createUser } from "@/lib/data/users";

const command: Command = {
  name: "create-user",
  usage: "create-user --email E --role ADMIN|LEAD|ANNOTATOR [--name N] [--password P]",
  async run(args) {
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
