import { describe, expect, test } from "vitest";
import { attachmentHeader, EXPORT_FORMATS, exportFileName } from "@/lib/export/formats";

describe("export file names (lib/export/formats.ts)", () => {
  test("each format and variant has its own name: layout, gold, filters, then the extension", () => {
    expect(EXPORT_FORMATS.map((format) => exportFileName("demo", format))).toEqual(["demo.jsonl", "demo.long.csv", "demo.long.jsonl", "demo.wide.csv", "demo.wide.jsonl", "demo.gradedreviews.xlsx", "demo.github-comments.jsonl", "demo.test-outcomes.jsonl"]);
    expect(exportFileName("demo", "long-csv", { includeGold: true })).toBe("demo.long.gold.csv");
    expect(exportFileName("demo", "hf", { includeGold: true, status: "submitted" })).toBe("demo.hf.gold.submitted.zip");
    expect(exportFileName("demo", "parquet")).toBe("demo.parquet.zip");
    expect(exportFileName("demo", "jsonl", { includeGold: true })).toBe("demo.gold.jsonl");
    expect(exportFileName("demo", "gradedreviews", { annotator: "grace", includeGold: true })).toBe("demo.gradedreviews.gold.grace.xlsx");
    const filtered = { status: "submitted", annotator: "ada", from: new Date("2026-11-01"), to: new Date("2026-11-24T10:30:00Z") };
    expect(exportFileName("demo", "wide-csv", filtered)).toBe("demo.wide.submitted.ada.from-2026-11-01.to-2026-11-24T10-30-00Z.csv");
    const names = new Set([false, true].flatMap((includeGold) => EXPORT_FORMATS.map((format) => exportFileName("demo", format, { includeGold }))));
    expect(names.size).toBe(2 * EXPORT_FORMATS.length);
  });

  test("an annotator's name cannot add a part, a folder or a quote to the name", () => {
    expect(exportFileName("demo", "long-csv", { annotator: '../x "y".csv' })).toBe("demo.long.x-y-csv.csv");
    expect(exportFileName("demo", "long-csv", { annotator: "Ana María" })).toBe("demo.long.Ana-María.csv");
    expect(exportFileName("demo", "long-csv", { annotator: "..." })).toBe("demo.long.csv");
  });

  test("the Content-Disposition gives an ASCII name and, when it differs, the UTF-8 one (RFC 6266)", () => {
    expect(attachmentHeader("demo.long.gold.csv")).toBe('attachment; filename="demo.long.gold.csv"');
    expect(attachmentHeader("demo.long.Ana-María.csv")).toBe(`attachment; filename="demo.long.Ana-Mar_a.csv"; filename*=UTF-8''demo.long.Ana-Mar%C3%ADa.csv`);
    expect(attachmentHeader("demo.long.O'Brien(1).csv")).toBe(`attachment; filename="demo.long.O'Brien(1).csv"`);
    expect(attachmentHeader("demo.long.100%é.csv")).toBe(`attachment; filename="demo.long.100__.csv"; filename*=UTF-8''demo.long.100%25%C3%A9.csv`);
  });
});
