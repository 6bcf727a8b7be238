import type { Command } from "@/lib/cli/command";
import { databaseLabel, resolveDatabase } from "@/lib/db/resolve";

/**
 * Applies pending migrations to the configured database (DATABASE_URL) or else the embedded one
 * (started for the command when the product is not running), and says which it applied.
 */
const command: Command = {
  name: "migrate",
  usage: "migrate",
  needsDatabase: false,
  async run() {
    const database = await resolveDatabase();
    try {
      return { ...databaseLabel(database.url), applied: database.applied };
    } finally {
      await database.release();
    }
  },
};
export default command;
