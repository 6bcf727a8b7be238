import { describe, expect, test } from "vitest";
import { batches, insertStatement } from "@/lib/import/bulk-insert";

describe("bulk insert", () => {
  test("one statement per batch: each column an array parameter, enums cast from text", () => {
    const table = { name: "PseudoReference", columns: { id: "text", kind: { enum: "PseudoReferenceKind" }, position: "integer", updatedAt: "timestamp(3)" } } as const;
    expect(insertStatement(table)).toBe(
      'INSERT INTO "PseudoReference" ("id", "kind", "position", "updatedAt") SELECT u."id", u."kind"::"PseudoReferenceKind", u."position", u."updatedAt" FROM unnest($1::text[], $2::text[], $3::integer[], $4::timestamp(3)[]) AS u("id", "kind", "position", "updatedAt")',
    );
  });

  test("batches hold at most 5,000 rows and cut before 16 million characters of text", () => {
    const small = Array.from({ length: 12_001 }, (_, i) => ({ id: String(i) }));
    expect([...batches(small)].map((b) => b.length)).toEqual([5000, 5000, 2001]);
    const big = Array.from({ length: 5 }, () => ({ diff: "x".repeat(6_000_000) }));
    expect([...batches(big)].map((b) => b.length)).toEqual([2, 2, 1]);
  });
});
