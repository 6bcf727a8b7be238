import type { Command } from "@/lib/cli/command";
import { db } from "@/lib/db/client";
import { readMigrations } from "@/lib/db/migrate";

const command: Command = {
  name: "db-status",
  usage: "db-status",
  async run() {
    const applied = await db.$queryRaw<{ migration_name: string }[]>`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name`;
    const [users, studies, codeChanges, reviews, annotations] = await Promise.all([
      db.user.count(),
      db.study.count(),
      db.codeChange.count(),
      db.candidateReview.count(),
      db.annotationHistory.count(),
    ]);
    const url = new URL(process.env.DATABASE_URL ?? "");
    return {
      database: `${url.hostname}:${url.port}${url.pathname}`,
      source: process.env.CRJUDGE_DB_SOURCE ?? "external",
      migrations: { applied: applied.map((m) => m.migration_name), pending: readMigrations().map((m) => m.name).filter((n) => !applied.some((a) => a.migration_name === n)) },
      counts: { users, studies, codeChanges, reviews, historyRows: annotations },
    };
  },
};
export default command;
