import { describe, expect, test } from "vitest";
import { csvDelimiter, readCsv } from "@/lib/import/csv";
import { ErrorCollector } from "@/lib/import/errors";

const ROWS = [
  ["id", "diff", "claim", "correctness (1/0/-1/-2)"],
  ["1", "@@ -1 +1 @@\n-a, b; c\n+d\t\"e\"", "The change renames a.", "1"],
  ["2", "", "It adds; a comma, and a tab\tto the text.", "-1"],
];

/** The rows written with `delimiter`, quoting every cell that holds a delimiter, a quote or a newline. */
function written(delimiter: string, lineEnd = "\r\n"): string {
  const cell = (v: string) => (/[",;\t\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return ROWS.map((r) => r.map(cell).join(delimiter)).join(lineEnd) + lineEnd;
}

const read = (name: string, text: string) => {
  const errors = new ErrorCollector();
  const sheet = readCsv({ name, content: Buffer.from(text) }, errors);
  return { sheet, errors: errors.all };
};

describe("CSV files separated by commas, semicolons (Excel where the decimal separator is a comma) or tabs", () => {
  test("read to the same sheet whichever the delimiter; a file not separated by commas says how it was read", () => {
    const comma = read("comma.csv", written(","));
    expect(comma.errors).toEqual([]);
    expect(comma.sheet!.header).toEqual(ROWS[0]);
    expect(comma.sheet!.rows.map((r) => r.cells)).toEqual(ROWS.slice(1));
    expect(comma.sheet!.warnings).toEqual([]);
    for (const [delimiter, name] of [[";", "semicolon"], ["\t", "tab"]] as const) {
      const other = read(`${name}.csv`, written(delimiter, "\n"));
      expect(other.errors).toEqual([]);
      expect(other.sheet!.header).toEqual(comma.sheet!.header);
      expect(other.sheet!.rows.map((r) => [r.row, r.cells])).toEqual(comma.sheet!.rows.map((r) => [r.row, r.cells]));
      expect(other.sheet!.warnings).toEqual([`${name}.csv: read as ${name}-separated values (its header line has more ${name}s than commas)`]);
    }
  });

  test("the delimiter is the one the header line uses most outside quotes, comma on a tie", () => {
    expect(csvDelimiter('id,"a;b;c",x\n1;2;3;4;5\n')).toBe(",");
    expect(csvDelimiter('id;"a,b,c";x\n')).toBe(";");
    expect(csvDelimiter("id\tclaim\tcode\n")).toBe("\t");
    expect(csvDelimiter("id;claim,code\n")).toBe(",");
    expect(csvDelimiter("claim\n1\n")).toBe(",");
    // A quoted header cell over two lines: its newline is not the end of the header.
    expect(csvDelimiter('"multi\nline";b;c\n')).toBe(";");
  });
});
