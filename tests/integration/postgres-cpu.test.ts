/**
 * The bench's reading of the test server's CPU (scripts/bench/support/postgres-cpu.ts) keeps the
 * time of a backend whose connection closed between two readings (Linux: read from /proc).
 */
import { existsSync } from "node:fs";
import pg from "pg";
import { expect, inject, test } from "vitest";
import { backendCpuMs, postgresCpuMs } from "@/scripts/bench/support/postgres-cpu";

const url = inject("databaseUrl");
const port = Number(new URL(url).port);

test.skipIf(!existsSync("/proc/self/stat"))("a backend that worked and exited between two readings counts for its CPU", async () => {
  const before = postgresCpuMs(port);
  expect(before).not.toBeNull();
  const connection = new pg.Client({ connectionString: url });
  await connection.connect();
  const { rows } = await connection.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  await connection.query("SELECT count(*) FROM generate_series(1, 2000000)");
  const backendMs = backendCpuMs(rows[0].pid)!;
  await connection.end();
  // Until the postmaster has reaped it.
  while (existsSync(`/proc/${rows[0].pid}`)) await new Promise((resolve) => setTimeout(resolve, 20));
  const after = postgresCpuMs(port)!;
  expect(backendMs).toBeGreaterThan(100);
  // Its time reaches the postmaster's account in 10 ms ticks.
  expect(after - before!).toBeGreaterThan(backendMs - 10);
});
