import type { Command } from "@/lib/cli/command";
import { CliError } from "@/lib/cli/args";
import { rotatePassword } from "@/lib/db/embedded-postgres";
import { env } from "@/lib/env";

/** Sets a new random password on the embedded PostgreSQL server and keeps it in the data folder. */
const command: Command = {
  name: "rotate-db-password",
  usage: "rotate-db-password   (embedded database only, with the product stopped)",
  needsDatabase: false,
  async run() {
    if (env().DATABASE_URL) throw new CliError("DATABASE_URL is set: rotate that server's password with its own tools; this command changes the embedded database's.");
    return { rotated: true, passwordFile: await rotatePassword() };
  },
};
export default command;
