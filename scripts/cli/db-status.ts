import type { Command } from "@/lib/cli/command";
import { sql } from "@/lib/db/connection";
import { readMigrations } from "@/lib/db/migrate";
import { databaseLabel } from "@/lib/db/resolve";
import { databaseUrl } from "@/lib/env";

/** Rows of the main tables, in one statement straight through pg (this command does not load Prisma: scripts/bench/cli-start.ts). */
const COUNTS = `SELECT (SELECT count(*) FROM "User")::int AS accounts, (SELECT count(*) FROM "Study")::int AS studies,
  (SELECT count(*) FROM "CodeChange")::int AS "codeChanges", (SELECT count(*) FROM "CandidateReview")::int AS reviews,
  (SELECT count(*) FROM "AnnotationHistory")::int AS "historyRows"`;

const command: Command = {
  name: "db-status",
  usage: "db-status",
  async run() {
    const applied = await sql<{ migration_name: string }>({ text: `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name` }, []);
    const [counts] = await sql<{ accounts: number; studies: number; codeChanges: number; reviews: number; historyRows: number }>({ text: COUNTS }, []);
    return {
      ...databaseLabel(databaseUrl()),
      migrations: { applied: applied.map((m) => m.migration_name), pending: readMigrations().map((m) => m.name).filter((n) => !applied.some((a) => a.migration_name === n)) },
      counts,
    };
  },
};
export default command;
