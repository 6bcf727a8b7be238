/**
 * Static analysis of one code change (CRScore §3.1): the language's analyzers on the new file
 * and the old one, the new file's findings kept when the change introduced them (./introduced)
 * on or near its changed lines (./changed-lines).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { changedNewLines, nearChangedLine } from "./changed-lines";
import { splitIntroduced } from "./introduced";
import { runJshint } from "./jshint";
import { analyzedFileName } from "./language";
import { runPmd } from "./pmd";
import { runPylint } from "./pylint";
import { runPyscent } from "./pyscent";
import { radonFindings, type RadonBlock, runRadon } from "./radon";
import type { AnalyzedLanguage, Finding } from "./types";

export interface ChangeToAnalyze {
  language: AnalyzedLanguage;
  filePath: string;
  diff: string;
  oldFile: string;
  newFile: string;
}

export interface ToolTally {
  /** Findings in the whole new file. */
  found: number;
  /** Of those, the ones also in the old file. */
  existing: number;
  /** Introduced findings on or near changed lines: the ones kept. */
  kept: number;
  seconds: number;
}

export interface ChangeAnalysis {
  findings: Finding[];
  tools: Record<string, ToolTally>;
  /** radon's ranks of every block of the new file (CRScore Table 6), Python only. */
  radonRanks?: Record<string, number>;
}

type Analyzer = (files: { newPath: string; oldPath: string | null }) => Promise<{ tool: string; newFindings: Finding[]; oldFindings: Finding[]; blocks?: RadonBlock[] }[]>;

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const value = await work();
  return [value, (performance.now() - t0) / 1000];
};

function analyzers(language: AnalyzedLanguage, versions: Record<string, string>, texts: { newFile: string; oldFile: string }): Analyzer[] {
  const both = (f: { newPath: string; oldPath: string | null }) => (f.oldPath ? [f.newPath, f.oldPath] : [f.newPath]);
  switch (language) {
    case "javascript":
      return [async () => [{ tool: "jshint", newFindings: runJshint(texts.newFile), oldFindings: texts.oldFile ? runJshint(texts.oldFile) : [] }]];
    case "java":
      return [async (f) => {
        const found = await runPmd(both(f));
        return [{ tool: "pmd", newFindings: found.get(f.newPath) ?? [], oldFindings: f.oldPath ? (found.get(f.oldPath) ?? []) : [] }];
      }];
    case "python":
      return [
        async (f) => {
          const found = await runPylint(both(f), versions.pylint);
          return [{ tool: "pylint", newFindings: found.get(f.newPath) ?? [], oldFindings: f.oldPath ? (found.get(f.oldPath) ?? []) : [] }];
        },
        async (f) => {
          const blocks = await runRadon(both(f));
          const newBlocks = blocks.get(f.newPath) ?? [];
          return [{ tool: "radon", newFindings: radonFindings(newBlocks, versions.radon), oldFindings: f.oldPath ? radonFindings(blocks.get(f.oldPath) ?? [], versions.radon) : [], blocks: newBlocks }];
        },
        async (f) => {
          const found = await runPyscent(both(f));
          return [{ tool: "pyscent", newFindings: found.get(f.newPath) ?? [], oldFindings: f.oldPath ? (found.get(f.oldPath) ?? []) : [] }];
        },
      ];
  }
}

/** `versions`: the version of each tool of the language, as detected when the run was planned. */
export async function analyzeChange(change: ChangeToAnalyze, versions: Record<string, string>): Promise<ChangeAnalysis> {
  const dir = await mkdtemp(path.join(tmpdir(), "crjudge-analysis-"));
  try {
    const name = analyzedFileName(change.language, change.filePath);
    await Promise.all([mkdir(path.join(dir, "new")), mkdir(path.join(dir, "old"))]);
    const newPath = path.join(dir, "new", name);
    const oldPath = change.oldFile ? path.join(dir, "old", name) : null;
    await writeFile(newPath, change.newFile);
    if (oldPath) await writeFile(oldPath, change.oldFile);
    const changed = changedNewLines(change.diff);
    const result: ChangeAnalysis = { findings: [], tools: {} };
    for (const analyzer of analyzers(change.language, versions, change)) {
      const [outputs, seconds] = await timed(() => analyzer({ newPath, oldPath }));
      for (const out of outputs) {
        const { introduced, existing } = splitIntroduced(out.newFindings, change.newFile, out.oldFindings, change.oldFile);
        const kept = introduced.filter((f) => nearChangedLine(f, changed));
        result.findings.push(...kept);
        result.tools[out.tool] = { found: out.newFindings.length, existing: existing.length, kept: kept.length, seconds: Number((seconds / outputs.length).toFixed(3)) };
        if (out.blocks) result.radonRanks = Object.fromEntries(["A", "B", "C", "D", "E", "F"].map((r) => [r, out.blocks!.filter((b) => b.rank === r).length]));
      }
    }
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
