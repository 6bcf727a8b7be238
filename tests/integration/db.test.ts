import { describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { readMigrations } from "@/lib/db/migrate";
import { cli } from "./cli";

describe("database", () => {
  const db = createClient(inject("databaseUrl"));

  test("history is append-only", async () => {
    const row = await db.annotationHistory.create({
      data: { kind: "CLAIM_JUDGEMENT", annotationId: "x", action: "CREATE", newValue: { code: 1 } },
    });
    await expect(db.annotationHistory.update({ where: { id: row.id }, data: { annotationId: "y" } })).rejects.toThrow(/append-only/);
    await expect(db.annotationHistory.delete({ where: { id: row.id } })).rejects.toThrow(/append-only/);
    expect(await db.annotationHistory.count({ where: { id: row.id } })).toBe(1);
  });

  test("`cli db-status` lists the applied migrations and counts the main tables (straight through pg, without Prisma)", async () => {
    const { code, stdout } = await cli("db-status");
    expect(code).toBe(0);
    const status = JSON.parse(stdout) as { migrations: { applied: string[]; pending: string[] }; counts: Record<string, number> };
    expect(status.migrations).toEqual({ applied: readMigrations().map((m) => m.name), pending: [] });
    expect(status.counts).toEqual({
      users: await db.user.count(),
      studies: await db.study.count(),
      codeChanges: await db.codeChange.count(),
      reviews: await db.candidateReview.count(),
      historyRows: await db.annotationHistory.count(),
    });
  });
});
