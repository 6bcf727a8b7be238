/**
 * A fresh, migrated database on a private embedded PostgreSQL cluster, for integration tests,
 * browser tests and benchmarks. Each call starts its own cluster in a temporary folder on a
 * free port (about 2 s), so concurrent runs never share or stop each other's server, and tests
 * never touch the product's data.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import type { EmbeddedServer } from "@/lib/db/embedded-server";
import { migrate } from "@/lib/db/migrate";

export interface TestDatabase {
  url: string;
  server: EmbeddedServer;
  /** Stops the cluster and deletes its folder. */
  drop: () => Promise<void>;
}

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `durable: false` (the default) skips fsync: durability is not under test, and test clusters are faster. */
export async function createTestDatabase(name: string, { durable = false }: { durable?: boolean } = {}): Promise<TestDatabase> {
  const folder = await mkdtemp(path.join(tmpdir(), `${name}-`));
  // The server runs as the `postgres` user when we are root; it must reach the folder.
  await chmod(folder, 0o755);
  const server = await startEmbeddedPostgres({
    dataDir: path.join(folder, "postgres"),
    port: await freePort(),
    database: name,
    fast: !durable,
  });
  await migrate(server.url);
  return {
    url: server.url,
    server,
    drop: async () => {
      await server.stop();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
