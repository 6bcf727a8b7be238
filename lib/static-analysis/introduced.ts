/**
 * Telling findings the change introduced from those the old file already had: a finding of the
 * new file is existing when the old file has one of the same tool and rule on a line with the
 * same text (whitespace ignored), each old finding matching at most one new one. Line numbers
 * are not compared, since the change moves them.
 */
import type { Finding } from "./types";

const lineText = (lines: readonly string[], line: number) => (lines[line - 1] ?? "").replace(/\s+/g, " ").trim();

export function splitIntroduced(newFindings: readonly Finding[], newText: string, oldFindings: readonly Finding[], oldText: string): { introduced: Finding[]; existing: Finding[] } {
  const newLines = newText.split("\n");
  const oldLines = oldText.split("\n");
  const pool = new Map<string, number>();
  for (const f of oldFindings) {
    const key = `${f.tool}\u0000${f.ruleId}\u0000${lineText(oldLines, f.line)}`;
    pool.set(key, (pool.get(key) ?? 0) + 1);
  }
  const introduced: Finding[] = [];
  const existing: Finding[] = [];
  for (const f of newFindings) {
    const key = `${f.tool}\u0000${f.ruleId}\u0000${lineText(newLines, f.line)}`;
    const left = pool.get(key) ?? 0;
    if (left > 0) {
      pool.set(key, left - 1);
      existing.push(f);
    } else introduced.push(f);
  }
  return { introduced, existing };
}
