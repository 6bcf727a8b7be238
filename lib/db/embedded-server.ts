/**
 * The product's embedded server when it is running: its URL from the password file kept beside
 * the data folder, and one connection to the database. Apart from lib/db/embedded-postgres.ts,
 * which starts a server, so that a command against a running one does not load that.
 */
import "server-only";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { env } from "@/lib/env";

/** The embedded server of this configuration: its data folder, port and database. */
export function embeddedDefaults(): EmbeddedLocation {
  return { dataDir: path.resolve(env().CRJUDGE_DATA_DIR, "postgres"), port: env().EMBEDDED_PG_PORT, database: "crjudge" };
}

export const EMBEDDED_USER = "postgres";

/** Where an embedded server's data is, the port it listens on and the database used. */
export interface EmbeddedLocation {
  dataDir: string;
  port: number;
  database: string;
}

export interface EmbeddedServer {
  url: string;
  /** True when this call started the server (and so `stop` shuts it down). */
  started: boolean;
  stop: () => Promise<void>;
}

export function embeddedUrl(port: number, database: string, password: string): string {
  return `postgresql://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** The password file of the cluster configured at `dataDir`. */
export function passwordFileOf(dataDir: string): string {
  return path.join(path.dirname(dataDir), "postgres-password");
}

export function readPassword(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, "utf8").trim() || undefined : undefined;
}

/** The URL of the embedded server configured at `dataDir`, with the password kept there. */
export function embeddedServerUrl(options: EmbeddedLocation): string | undefined {
  const password = readPassword(passwordFileOf(options.dataDir));
  return password && embeddedUrl(options.port, options.database, password);
}

/** True when a PostgreSQL server answers at `url` with these credentials. */
export async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The server configured at `dataDir` when it runs and its `database` exists: one connection,
 * with the stored password. Not started here, so `stop` leaves it running.
 */
export async function runningEmbeddedServer(location: EmbeddedLocation): Promise<EmbeddedServer | undefined> {
  const url = embeddedServerUrl(location);
  return url && (await canConnect(url)) ? { url, started: false, stop: async () => undefined } : undefined;
}
