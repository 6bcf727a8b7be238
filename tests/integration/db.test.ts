import { describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";

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
});
