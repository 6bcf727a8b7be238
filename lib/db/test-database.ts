/**
 * A fresh, migrated database on a private embedded PostgreSQL cluster, for integration tests,
 * browser tests and benchmarks. Each call starts its own cluster in a temporary folder on a
 * free port (about 2 s), so concurrent runs never share or stop each other's server, and tests
 * never touch the product's data.
 */
import "server-only";
import { spawn, type ChildProcess } from "node:child_process";
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

/**
 * A process that stops the cluster in `folder` and deletes the folder once this process is gone,
 * however it ends (a crashed or killed test run would otherwise leave the server running, and its
 * autovacuum and memory would weigh on the next runs): it waits for the end of a pipe only this
 * process writes to. Detached, so a Ctrl-C to the test run's process group does not stop it first.
 */
function orphanWatch(folder: string): ChildProcess {
  const script = `read _
pid=$(head -n 1 "$1/postgres/postmaster.pid" 2>/dev/null)
if [ -n "$pid" ]; then
  kill -INT "$pid" 2>/dev/null
  for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null
fi
rm -rf "$1"`;
  const watch = spawn("sh", ["-c", script, "orphan-watch", folder], { stdio: ["pipe", "ignore", "ignore"], detached: true });
  watch.unref();
  (watch.stdin as unknown as { unref(): void }).unref();
  return watch;
}

/** `durable: false` (the default) skips fsync: durability is not under test, and test clusters are faster. */
export async function createTestDatabase(name: string, { durable = false }: { durable?: boolean } = {}): Promise<TestDatabase> {
  const folder = await mkdtemp(path.join(tmpdir(), `${name}-`));
  // The server runs as the `postgres` user when we are root; it must reach the folder.
  await chmod(folder, 0o755);
  const watch = orphanWatch(folder);
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
      watch.kill("SIGKILL");
      await server.stop();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
