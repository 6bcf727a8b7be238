/**
 * The one error model against real errors: AppError codes keep their HTTP status, a ZodError
 * names the field and why, and real Prisma/PostgreSQL errors reach accounts only as a generic
 * message without Prisma, SQL or stack text.
 */
import { describe, expect, inject, test, vi } from "vitest";
import { z } from "zod";
import { createClient } from "@/lib/db/client";
import { parseItemIds } from "@/lib/analysis/item-sets";
import { AppError, ERROR_STATUS, GENERIC_MESSAGE, InvariantError, publicError, SetupError, toAppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/respond";

const DATABASE_TEXT = /prisma|invalid `|INSERT|UPDATE|SELECT|"User"|constraint|0x00|at .*\.(ts|js):\d+/i;

async function thrown(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error("expected an error");
    },
    (error: unknown) => error,
  );
}

async function bodyOf(error: unknown): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const response = errorResponse(error);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text };
}

describe("error model", () => {
  const db = createClient(inject("databaseUrl"));

  test("every code has one status, and AppError keeps its code, message and details in the response", async () => {
    expect(ERROR_STATUS).toMatchObject({ INVALID_INPUT: 400, UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409, PAYLOAD_TOO_LARGE: 413, UNSUPPORTED_MEDIA_TYPE: 415, RATE_LIMITED: 429, INTERNAL: 500, UNAVAILABLE: 503 });
    const error = new AppError("CONFLICT", { message: "changed elsewhere", details: { conflict: { current: 1 } } });
    expect(await bodyOf(error)).toMatchObject({ status: 409, body: { error: "changed elsewhere", code: "CONFLICT", conflict: { current: 1 } } });
    const limited = errorResponse(new AppError("RATE_LIMITED", { message: "slow down", retryAfterSeconds: 7 }));
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "7"]);
    expect((await bodyOf(new AppError("FORBIDDEN", { message: "detail for the log", userMessage: "Not yours." }))).body.error).toBe("Not yours.");
  });

  test("an account's mistake found in lib is a 4xx with its message; a named internal error a 500 with the generic one, its message kept for the log and CLI", async () => {
    const empty = await thrown(Promise.resolve().then(() => parseItemIds("ids.txt", "# nothing here\n\n")));
    expect(await bodyOf(empty)).toMatchObject({ status: 400, body: { code: "INVALID_INPUT", error: expect.stringMatching(/^item file ids\.txt lists no item/) } });
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      for (const error of [new SetupError("pylint is not installed: apt-get install pylint"), new InvariantError("a rater's 3 item ids came with 2 answers")]) {
        expect(await bodyOf(publicError(error))).toMatchObject({ status: 500, body: { code: "INTERNAL", error: GENERIC_MESSAGE } });
        expect(toAppError(error).message).toBe(error.message);
      }
    } finally {
      log.mockRestore();
    }
  });

  test("a ZodError is INVALID_INPUT naming the field path and why", async () => {
    const schema = z.object({ deltaMs: z.number().min(0), targets: z.record(z.string(), z.number()) });
    const error = await thrown(Promise.resolve().then(() => schema.parse({ deltaMs: -1, targets: { a: "x" } })));
    const { status, body } = await bodyOf(error);
    expect(status).toBe(400);
    expect(body.code).toBe("INVALID_INPUT");
    expect(body.error).toMatch(/^deltaMs: .*>=0/m);
    expect(body.error).toMatch(/^targets\.a: .*expected number/m);
  });

  test("real Prisma errors: unique and missing rows get their codes, the rest a generic 500; no database text in any body", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await db.account.create({ data: { email: "error-model@example.org", name: "E", role: "ANNOTATOR" } });
      const duplicate = await thrown(db.account.create({ data: { email: "error-model@example.org", name: "E", role: "ANNOTATOR" } }));
      const missing = await thrown(db.account.update({ where: { id: "no-such-user" }, data: { name: "x" } }));
      const nul = await thrown(db.account.create({ data: { email: "nul@example.org", name: "bad\u0000name", role: "ANNOTATOR" } }));
      const raw = await thrown(db.$executeRawUnsafe('INSERT INTO "User" (id) VALUES ($1)', "x"));
      expect(String((nul as Error).message) + String((raw as Error).message)).toMatch(/prisma|0x00|INSERT/i);

      const cases: [unknown, number, string][] = [
        [duplicate, 409, "CONFLICT"],
        [missing, 404, "NOT_FOUND"],
        [nul, 500, "INTERNAL"],
        [raw, 500, "INTERNAL"],
        [new TypeError("Cannot read properties of undefined (reading 'id')"), 500, "INTERNAL"],
      ];
      for (const [error, status, code] of cases) {
        const response = await bodyOf(error);
        expect([response.status, response.body.code]).toEqual([status, code]);
        expect(response.text).not.toMatch(DATABASE_TEXT);
        expect(response.text).not.toContain("reading 'id'");
      }
      expect((await bodyOf(nul)).body.error).toBe(GENERIC_MESSAGE);
      // The detail is not lost: the server log has it.
      expect(log.mock.calls.flat().map(String).join("\n")).toMatch(/0x00|invalid byte sequence|prisma/i);
      // The CLI (the operator's own terminal) reads the full message through the same mapping.
      expect(toAppError(raw).message).toMatch(/INSERT|prisma/i);
    } finally {
      log.mockRestore();
    }
  });

  test("only server errors are logged", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      publicError(new AppError("NOT_FOUND", { message: "No such study." }));
      expect(log).not.toHaveBeenCalled();
      publicError(new Error("boom"));
      expect(log).toHaveBeenCalledTimes(1);
    } finally {
      log.mockRestore();
    }
  });
});
