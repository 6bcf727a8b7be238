import { describe, expect, test } from "vitest";
import { copyStatement, copyText, copyValue } from "@/lib/import/bulk-insert";

describe("bulk insert (COPY text format)", () => {
  const table = { name: "PseudoReference", columns: { id: "text", kind: { enum: "PseudoReferenceKind" }, position: "integer", updatedAt: "timestamp(3)" } } as const;

  test("one COPY per table naming the columns written", () => {
    expect(copyStatement(table)).toBe('COPY "PseudoReference" ("id", "kind", "position", "updatedAt") FROM STDIN');
  });

  test("values: \\N for null, t/f, ISO times, JSON for jsonb, and the format's delimiters escaped", () => {
    expect(copyValue(null, "text")).toBe("\\N");
    expect(copyValue(undefined, "integer")).toBe("\\N");
    expect(copyValue("\\N", "text")).toBe("\\\\N");
    expect(copyValue(true, "boolean")).toBe("t");
    expect(copyValue(false, "boolean")).toBe("f");
    expect(copyValue(42, "integer")).toBe("42");
    expect(copyValue(new Date(Date.UTC(2026, 10, 24, 13, 5, 6, 789)), "timestamp(3)")).toBe("2026-11-24T13:05:06.789Z");
    expect(copyValue("a\tb\nc\r\\d", "text")).toBe("a\\tb\\nc\\r\\\\d");
    expect(copyValue({ note: "line\nbreak", path: "C:\\x" }, "jsonb")).toBe('{"note":"line\\\\nbreak","path":"C:\\\\\\\\x"}');
  });

  test("a line per row, a tab between values, in chunks of about 1 MiB that report their row counts", () => {
    const rows = [{ id: "a", kind: "CLAIM", position: 0, updatedAt: null }];
    expect([...copyText(table, rows)]).toEqual(["a\tCLAIM\t0\t\\N\n"]);
    const many = Array.from({ length: 30_000 }, (_, i) => ({ id: `${i}`.padStart(40, "x"), kind: "CLAIM", position: i, updatedAt: null }));
    const counts: number[] = [];
    const chunks = [...copyText(table, many, (n) => counts.push(n))];
    expect(chunks.length).toBeGreaterThan(1);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(many.length);
    expect(chunks.join("").split("\n").length - 1).toBe(many.length);
  });
});
