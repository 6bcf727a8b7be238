/**
 * Static analysis of code changes (CRScore §3.1): the language's analyzers on each change's new
 * file and old one, the new file's findings kept when the change introduced them (./introduced)
 * on or near its changed lines (./changed-lines).
 *
 * A chunk of changes is analyzed at once: each analyzer runs once over the files of all the
 * chunk's changes of its language (one JVM for PMD, one Python process each for pylint, radon
 * and the PyScent detectors), each file checked on its own as the per-change run checks it, so a
 * change's findings do not depend on the chunk it is in.
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
  /** The tool's time for the chunk, shared equally among the chunk's changes of the language. */
  seconds: number;
}

export interface ChangeAnalysis {
  findings: Finding[];
  tools: Record<string, ToolTally>;
  /** radon's ranks of every block of the new file (CRScore Table 6), Python only. */
  radonRanks?: Record<string, number>;
}

/** Where a change's files are written: its new file, and its old one when it has one. */
interface ChangeFiles {
  newPath: string;
  oldPath: string | null;
}

/** One analyzer's findings in the new and old file of each change, in the changes' order. */
interface ToolOutput {
  tool: string;
  newFindings: Finding[][];
  oldFindings: Finding[][];
  /** radon's blocks of each new file. */
  blocks?: RadonBlock[][];
}

type Analyzer = (files: readonly ChangeFiles[], texts: readonly ChangeToAnalyze[]) => Promise<ToolOutput>;

const pathsOf = (files: readonly ChangeFiles[]) => files.flatMap((f) => (f.oldPath ? [f.newPath, f.oldPath] : [f.newPath]));

/** The findings of a tool's report (path → findings) in each change's new and old file. */
function perChange(tool: string, files: readonly ChangeFiles[], found: ReadonlyMap<string, Finding[]>): ToolOutput {
  return { tool, newFindings: files.map((f) => found.get(f.newPath) ?? []), oldFindings: files.map((f) => (f.oldPath ? (found.get(f.oldPath) ?? []) : [])) };
}

function analyzers(language: AnalyzedLanguage, versions: Record<string, string>): Analyzer[] {
  switch (language) {
    case "javascript":
      return [async (_files, texts) => ({ tool: "jshint", newFindings: texts.map((t) => runJshint(t.newFile)), oldFindings: texts.map((t) => (t.oldFile ? runJshint(t.oldFile) : [])) })];
    case "java":
      return [async (files) => perChange("pmd", files, await runPmd(pathsOf(files)))];
    case "python":
      return [
        async (files) => perChange("pylint", files, await runPylint(files.map((f) => pathsOf([f])), versions.pylint)),
        async (files) => {
          const blocks = await runRadon(pathsOf(files));
          const blocksOf = (file: string | null) => (file ? (blocks.get(file) ?? []) : []);
          return {
            tool: "radon",
            newFindings: files.map((f) => radonFindings(blocksOf(f.newPath), versions.radon)),
            oldFindings: files.map((f) => radonFindings(blocksOf(f.oldPath), versions.radon)),
            blocks: files.map((f) => blocksOf(f.newPath)),
          };
        },
        async (files) => perChange("pyscent", files, await runPyscent(pathsOf(files))),
      ];
  }
}

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const value = await work();
  return [value, (performance.now() - t0) / 1000];
};

/** Writes each change's files to `dir`/<index>/new|old/<name>. */
async function writeChanges(dir: string, changes: readonly ChangeToAnalyze[]): Promise<ChangeFiles[]> {
  return Promise.all(
    changes.map(async (change, i) => {
      const name = analyzedFileName(change.language, change.filePath);
      const base = path.join(dir, String(i));
      await Promise.all([mkdir(path.join(base, "new"), { recursive: true }), mkdir(path.join(base, "old"), { recursive: true })]);
      const newPath = path.join(base, "new", name);
      const oldPath = change.oldFile ? path.join(base, "old", name) : null;
      await writeFile(newPath, change.newFile);
      if (oldPath) await writeFile(oldPath, change.oldFile);
      return { newPath, oldPath };
    }),
  );
}

/**
 * Analyzes the changes, the analyzers of each language once over the chunk; `versions`: the
 * version of each tool, as detected when the run was planned. Throws when an analyzer fails.
 */
export async function analyzeChanges(changes: readonly ChangeToAnalyze[], versions: Record<string, string>): Promise<ChangeAnalysis[]> {
  if (changes.length === 0) return [];
  const results: ChangeAnalysis[] = changes.map(() => ({ findings: [], tools: {} }));
  const dir = await mkdtemp(path.join(tmpdir(), "crjudge-analysis-"));
  try {
    const files = await writeChanges(dir, changes);
    const languages = [...new Set(changes.map((c) => c.language))];
    // The languages' analyzers at once: most wait on a process (a JVM, Python).
    const outputs = await Promise.all(
      languages.flatMap((language) => {
        const indices = changes.flatMap((c, i) => (c.language === language ? [i] : []));
        return analyzers(language, versions).map(async (analyzer) => {
          const [output, seconds] = await timed(() => analyzer(indices.map((i) => files[i]), indices.map((i) => changes[i])));
          return { indices, output, seconds };
        });
      }),
    );
    for (const { indices, output, seconds } of outputs) {
      indices.forEach((index, k) => {
        const change = changes[index];
        const result = results[index];
        const { introduced, existing } = splitIntroduced(output.newFindings[k], change.newFile, output.oldFindings[k], change.oldFile);
        const changed = changedNewLines(change.diff);
        const kept = introduced.filter((f) => nearChangedLine(f, changed));
        result.findings.push(...kept);
        result.tools[output.tool] = { found: output.newFindings[k].length, existing: existing.length, kept: kept.length, seconds: Number((seconds / indices.length).toFixed(3)) };
        const blocks = output.blocks?.[k];
        if (blocks) result.radonRanks = Object.fromEntries(["A", "B", "C", "D", "E", "F"].map((r) => [r, blocks.filter((b) => b.rank === r).length]));
      });
    }
    return results;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
