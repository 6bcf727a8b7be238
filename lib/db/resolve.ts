/**
 * Which database a process uses: DATABASE_URL when set, otherwise the embedded server
 * (reused when the product is running, started for the duration of the command otherwise).
 */
import "server-only";
import { embeddedDefaults, runningEmbeddedServer } from "@/lib/db/embedded-server";
import { env } from "@/lib/env";
import { migrate } from "@/lib/db/migrate";

export interface ResolvedDatabase {
  url: string;
  embedded: boolean;
  /** The migrations this call applied (none when the database was up to date). */
  applied: string[];
  /** Stops the embedded server if this process started it. */
  release: () => Promise<void>;
}

/** `log` gets notes on what was arranged for the embedded server (stderr by default). */
export async function resolveDatabase(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<ResolvedDatabase> {
  const external = env().DATABASE_URL;
  if (external) {
    process.env.CRJUDGE_DB_SOURCE = "external";
    const applied = await migrate(external);
    return { url: external, embedded: false, applied, release: async () => undefined };
  }
  // The module that starts a server (and finds its binaries) loads only when none is running.
  const server = (await runningEmbeddedServer(embeddedDefaults())) ?? (await (await import("@/lib/db/embedded-postgres")).startEmbeddedPostgres({ log }));
  process.env.DATABASE_URL = server.url;
  process.env.CRJUDGE_DB_SOURCE = "embedded";
  let applied: string[];
  try {
    applied = await migrate(server.url);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url: server.url, embedded: true, applied, release: server.stop };
}

/** Which database a command used, for its output: host, port and database name (never the password), and where it came from. */
export function databaseLabel(url: string): { database: string; source: string } {
  const u = new URL(url);
  return { database: `${u.hostname}:${u.port}${u.pathname}`, source: env().CRJUDGE_DB_SOURCE ?? "external" };
}
