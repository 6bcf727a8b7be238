/**
 * The health route (app/api/health/route.ts) through the real pool: 200 {"status":"ok"} while
 * PostgreSQL answers, and 503 {"status":"unavailable"} with Retry-After, saying nothing of why,
 * when nothing listens at the database's address. The fault test (e2e/fault.spec.ts) kills
 * PostgreSQL under load, where whether a poll lands in the outage is a matter of timing; this is
 * the deterministic check of the 503.
 */
import { afterAll, expect, inject, test, vi } from "vitest";
import { freePort } from "@/lib/db/test-database";

const url = inject("databaseUrl");
process.env.DATABASE_URL = url;
const { db } = await import("@/lib/db/client");
const { GET } = await import("@/app/api/health/route");

afterAll(async () => {
  process.env.DATABASE_URL = url;
  // The integration files share one process: the next file's first query makes a pool on the right address.
  await db.$disconnect();
});

test("health answers 200 while the database answers, 503 without a word of why when it does not", async () => {
  // The integration files share one process: a pool an earlier file made is replaced.
  await db.$disconnect();
  const up = await GET();
  expect(up.status).toBe(200);
  expect(await up.json()).toEqual({ status: "ok" });

  const closed = new URL(url);
  closed.port = String(await freePort());
  process.env.DATABASE_URL = closed.toString();
  await db.$disconnect();
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const down = await GET();
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    const body = await down.text();
    expect(JSON.parse(body)).toEqual({ status: "unavailable" });
    expect(body).not.toContain(closed.port);
    // Why goes to the server log.
    expect(logged).toHaveBeenCalled();
  } finally {
    logged.mockRestore();
  }
});
