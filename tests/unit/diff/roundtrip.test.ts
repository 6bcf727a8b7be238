import { describe, expect, test } from "vitest";
import { applyFileDiff, parseUnifiedDiff, splitLines, unifiedDiff } from "@/lib/diff";
import { seededRandom, type Random } from "@/lib/stats/random";

const WORDS = ["if (x) {", "}", "return y;", "", "  foo();", "const a = 1;", "// note", "bar(a, b);"];

function randomText(random: Random, lines: number): string {
  const body = Array.from({ length: lines }, () => WORDS[Math.floor(random() * WORDS.length)]).join("\n");
  return lines > 0 && random() < 0.7 ? `${body}\n` : body;
}

/** Edits a text: deletes, inserts and replaces a few random lines, sometimes drops the last newline. */
function mutate(random: Random, text: string): string {
  const lines = text.split("\n");
  const edits = 1 + Math.floor(random() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * (lines.length + 1));
    const op = random();
    if (op < 0.33) lines.splice(at, 1);
    else if (op < 0.66) lines.splice(at, 0, `inserted ${e}`);
    else lines.splice(at, 1, `replaced ${e}`);
  }
  return lines.join("\n");
}

describe("round trip", () => {
  test("parse(unifiedDiff(a, b)) applied to a gives b; line numbers point at the right lines", () => {
    const random = seededRandom(42);
    for (let trial = 0; trial < 500; trial++) {
      const a = randomText(random, Math.floor(random() * 40));
      const b = random() < 0.2 ? randomText(random, Math.floor(random() * 40)) : mutate(random, a);
      const context = Math.floor(random() * 5);
      const diff = unifiedDiff(a, b, { path: "src/file.js", context });
      const files = parseUnifiedDiff(diff);
      if (a === b) {
        expect(files).toEqual([]);
        continue;
      }
      expect(files).toHaveLength(1);
      expect(files[0]).toMatchObject({ oldPath: "src/file.js", newPath: "src/file.js" });
      expect(applyFileDiff(a, files[0])).toBe(b);
      const oldLines = splitLines(a).map((l) => l.replace(/\n$/, ""));
      const newLines = splitLines(b).map((l) => l.replace(/\n$/, ""));
      for (const line of files[0].hunks.flatMap((h) => h.lines)) {
        if (line.oldLine !== null) expect(oldLines[line.oldLine - 1]).toBe(line.text);
        if (line.newLine !== null) expect(newLines[line.newLine - 1]).toBe(line.text);
      }
    }
  });

  test("applying a diff to a file it was not made from fails", () => {
    const [file] = parseUnifiedDiff(unifiedDiff("a\nb\nc\n", "a\nB\nc\n", { path: "f" }));
    expect(() => applyFileDiff("a\nx\nc\n", file)).toThrow(/old line 2 does not match/);
  });

  test("a 2,000-line diff of 2,000-line files is computed and parsed fast", () => {
    const random = seededRandom(7);
    const old = Array.from({ length: 2000 }, (_, i) => `    value_${i} = compute(${Math.floor(random() * 1000)})`);
    const changed = old.map((line, i) => (i % 7 === 0 ? `${line}  # changed` : line));
    const a = `${old.join("\n")}\n`;
    const b = `${changed.join("\n")}\n`;

    let started = performance.now();
    const diff = unifiedDiff(a, b, { path: "big.py" });
    const diffMs = performance.now() - started;
    expect(diff.split("\n").length).toBeGreaterThan(2000);

    let parseMs = Infinity;
    let files = parseUnifiedDiff(diff);
    for (let run = 0; run < 3; run++) {
      started = performance.now();
      files = parseUnifiedDiff(diff);
      parseMs = Math.min(parseMs, performance.now() - started);
    }
    expect(files[0].hunks.reduce((n, h) => n + h.lines.length, 0)).toBeGreaterThan(2000);
    expect(applyFileDiff(a, files[0])).toBe(b);
    expect(diffMs).toBeLessThan(1000);
    expect(parseMs).toBeLessThan(100);
  });

  test("two unrelated 2,000-line files (worst case for Myers) diff in linear space, fast", () => {
    const a = Array.from({ length: 2000 }, (_, i) => `a${i}\n`).join("");
    const b = Array.from({ length: 2000 }, (_, i) => `b${i}\n`).join("");
    const started = performance.now();
    const diff = unifiedDiff(a, b, { path: "x" });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(applyFileDiff(a, parseUnifiedDiff(diff)[0])).toBe(b);
  });
});
