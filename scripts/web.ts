/**
 * The web server `npm start` runs: `next start`'s server in CRJUDGE_WEB_PROCESSES (2) cluster
 * workers sharing one port (HOST:PORT). When one dies the others keep serving while it is
 * replaced, so a crashed server costs the requests it held, not a cold start of Next (which
 * takes seconds, and much longer on a busy machine).
 */
import cluster from "node:cluster";
import { createRequire } from "node:module";
import path from "node:path";
import { supervise } from "@/lib/process/supervise";
import { env } from "@/lib/env";

const root = path.resolve(import.meta.dirname, "..");
const processes = env().CRJUDGE_WEB_PROCESSES;

if (cluster.isPrimary) {
  const log = (line: string) => console.log(`[web] ${line}`);
  const workers = await Promise.all(Array.from({ length: processes }, (_, i) => supervise({ name: `web worker ${i + 1}`, log, start: () => cluster.fork().process })));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all(workers.map((worker) => worker.stop(3_000)));
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
} else {
  // What `next start` runs; the listening socket is the cluster primary's, shared by the workers.
  const { startServer } = createRequire(import.meta.url)("next/dist/server/lib/start-server") as {
    startServer: (options: { dir: string; isDev: boolean; hostname: string; port: number }) => Promise<void>;
  };
  await startServer({ dir: root, isDev: false, hostname: env().HOST, port: env().PORT });
}
