import { afterEach, expect, test, vi } from "vitest";
import { createPool } from "@/lib/db/connection";

afterEach(() => vi.restoreAllMocks());

test("a lost connection is reported while the pool is in use, not once it is ending (its server may be stopped right after)", async () => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  // Never connects: no statement is sent.
  const pool = createPool("postgresql://nobody@127.0.0.1:1/none", { size: 1, waitMs: 100 });
  pool.emit("error", new Error("terminating connection due to administrator command"));
  expect(logged).toHaveBeenCalledWith("database connection lost: terminating connection due to administrator command");
  logged.mockClear();
  await pool.end();
  pool.emit("error", new Error("terminating connection due to administrator command"));
  expect(logged).not.toHaveBeenCalled();
});
