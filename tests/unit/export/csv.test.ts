import { parse } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { csvLine, csvRecord } from "@/lib/export/csv";
import { seededRandom } from "@/lib/stats";

describe("CSV rows (lib/export/csv.ts)", () => {
  test("cells quoted only when they hold a quote, comma or line break; null is empty; CRLF ends the row", () => {
    expect(csvLine(["a", "b,c", 'say "hi"', null, 1, true, "x\ny", "\r", ""])).toBe('a,"b,c","say ""hi""",,1,true,"x\ny","\r",\r\n');
    expect(csvLine(["only"])).toBe("only\r\n");
    expect(csvLine([])).toBe("\r\n");
  });

  test("any row reads back as written (csv-parse)", () => {
    const random = seededRandom(4180);
    const alphabet = ["a", "Z", "1", " ", ",", '"', "\r", "\n", "é", "😀"];
    const cell = () => Array.from({ length: Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
    for (let round = 0; round < 200; round++) {
      const rows = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ["first", ...Array.from({ length: Math.floor(random() * 5) }, cell)]);
      const width = Math.max(...rows.map((r) => r.length));
      const even = rows.map((r) => [...r, ...Array<string>(width - r.length).fill("")]);
      expect(parse(even.map(csvLine).join(""), { relax_column_count: false })).toEqual(even);
    }
  });

  test("a record's line is the line of its columns' values, in the columns' order", () => {
    const random = seededRandom(4181);
    const alphabet = ["a", "1", ",", '"', "\n", "é"];
    const value = () => [null, 7, false, Array.from({ length: Math.floor(random() * 4) }, () => alphabet[Math.floor(random() * alphabet.length)]).join("")][Math.floor(random() * 4)];
    for (let round = 0; round < 100; round++) {
      const row = { a: value(), b: value(), c: value() };
      const columns = (["c", "a", "b"] as const).slice(0, Math.floor(random() * 4));
      expect(csvRecord(row, columns)).toBe(csvLine(columns.map((c) => row[c])));
    }
  });
});
