import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { clearStaleServer, ensurePassword, postmasterReady, prepareCluster, serverAnswers, setPassword, spawnPostmaster, stopPostmaster } from "@/lib/db/embedded-postgres";
import { canConnect, embeddedUrl, runningEmbeddedServer } from "@/lib/db/embedded-server";
import { freePort } from "@/lib/db/test-database";

const folder = mkdtempSync(path.join(tmpdir(), "crjudge-embedded-"));
chmodSync(folder, 0o755);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

test("a random password kept in a 0600 file; a postgres/postgres cluster gets one; a kill -9 leaves nothing that blocks a restart", async () => {
  const port = await freePort();
  // Durable settings (not the test clusters' fsync/synchronous_commit off): the restart after kill -9 must find the new password.
  const cluster = await prepareCluster({ dataDir: path.join(folder, "postgres"), port, database: "crjudge" });
  const passwordFile = path.join(folder, "postgres-password");
  expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
  let server = spawnPostmaster(cluster);
  await postmasterReady(server);

  const first = await ensurePassword(cluster);
  expect(first).toBe(readFileSync(passwordFile, "utf8"));
  expect(first.length).toBeGreaterThanOrEqual(32);
  expect(await canConnect(embeddedUrl(port, "postgres", first))).toBe(true);
  expect(await canConnect(embeddedUrl(port, "postgres", "postgres"))).toBe(false);
  // Found running through the password file, for an existing database only.
  expect(await runningEmbeddedServer({ dataDir: path.join(folder, "postgres"), port, database: "postgres" })).toMatchObject({ url: embeddedUrl(port, "postgres", first), started: false });
  expect(await runningEmbeddedServer({ dataDir: path.join(folder, "postgres"), port, database: "absent" })).toBeUndefined();

  // A cluster made before passwords were random: postgres/postgres and no password file.
  await setPassword(embeddedUrl(port, "postgres", first), "postgres");
  unlinkSync(passwordFile);
  const migrated = await ensurePassword(cluster);
  expect(migrated).not.toBe(first);
  expect(readFileSync(passwordFile, "utf8")).toBe(migrated);
  expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
  expect(await canConnect(embeddedUrl(port, "postgres", "postgres"))).toBe(false);
  expect(await canConnect(embeddedUrl(port, "postgres", migrated))).toBe(true);

  // kill -9 of the postmaster leaves its postmaster.pid behind.
  server.kill("SIGKILL");
  await new Promise((resolve) => server.once("exit", resolve));
  expect(existsSync(path.join(cluster.dataDir, "postmaster.pid"))).toBe(true);
  clearStaleServer(cluster);
  expect(existsSync(path.join(cluster.dataDir, "postmaster.pid"))).toBe(false);
  server = spawnPostmaster(cluster);
  await postmasterReady(server);
  expect(await canConnect(embeddedUrl(port, "postgres", migrated))).toBe(true);

  await stopPostmaster(cluster, server);
  expect(await serverAnswers(port)).toBe(false);
});
