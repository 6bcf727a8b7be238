/**
 * radon's cyclomatic complexity (CRScore Appendix C.2.2, Table 6): every function, method and
 * class gets a rank A-F; PyScent flags blocks of rank C or worse as the "Code complexity" smell.
 */
import { z } from "zod";
import { run, toolJson } from "./exec";
import type { Finding } from "./types";
import { SetupError } from "@/lib/errors";

/** CRScore Table 6: CC score bounds of each rank and the risk it stands for. */
export const RADON_RANKS = [
  { rank: "A", scores: "1-5", risk: "low - simple block" },
  { rank: "B", scores: "6-10", risk: "low - well structured and stable block" },
  { rank: "C", scores: "11-20", risk: "moderate - slightly complex block" },
  { rank: "D", scores: "21-30", risk: "more than moderate - more complex block" },
  { rank: "E", scores: "31-40", risk: "high - complex block, alarming" },
  { rank: "F", scores: "41+", risk: "very high - error-prone, unstable block" },
] as const;

export type RadonRank = (typeof RADON_RANKS)[number]["rank"];

/** Ranks from C on are smells (CRScore Appendix C.2.2). */
export const isComplexRank = (rank: string) => rank >= "C";

export interface RadonBlock {
  type: string;
  name: string;
  rank: RadonRank;
  complexity: number;
  line: number;
  endLine: number;
}

const blockSchema = z.object({ type: z.string(), name: z.string(), classname: z.string().optional(), rank: z.enum(["A", "B", "C", "D", "E", "F"]), complexity: z.number(), lineno: z.number(), endline: z.number() });
const reportSchema = z.record(z.string(), z.union([z.array(blockSchema), z.object({ error: z.string() })]));

export async function radonVersion(path?: string): Promise<string | null> {
  const result = await run("radon", ["--version"], { path });
  return result.code === 0 ? result.stdout.trim() || null : null;
}

/** Every block radon ranks, per analyzed path (a file radon cannot parse has none). */
export async function runRadon(files: readonly string[]): Promise<Map<string, RadonBlock[]>> {
  const result = await run("radon", ["cc", "--json", "--show-complexity", ...files], { timeoutMs: 120_000 });
  if (result.code === null) throw new SetupError("radon is not installed: apt-get install radon");
  const report = reportSchema.parse(toolJson("radon", result));
  const byFile = new Map<string, RadonBlock[]>(files.map((f) => [f, []]));
  for (const [file, blocks] of Object.entries(report)) {
    if (!Array.isArray(blocks)) continue;
    const key = files.find((f) => f === file) ?? file;
    byFile.set(
      key,
      blocks.map((b) => ({ type: b.type, name: b.classname && b.type === "method" ? `${b.classname}.${b.name}` : b.name, rank: b.rank, complexity: b.complexity, line: b.lineno, endLine: Math.max(b.endline, b.lineno) })),
    );
  }
  return byFile;
}

/** The "Code complexity" smells among a file's blocks. */
export function radonFindings(blocks: readonly RadonBlock[], version: string): Finding[] {
  return blocks
    .filter((b) => isComplexRank(b.rank))
    .map((b) => {
      const risk = RADON_RANKS.find((r) => r.rank === b.rank)!.risk;
      return {
        tool: "radon",
        toolVersion: version,
        ruleId: `cc-rank-${b.rank}`,
        smellType: "Code complexity",
        line: b.line,
        endLine: b.endLine,
        message: `${b.type} ${b.name} has cyclomatic complexity ${b.complexity} (rank ${b.rank})`,
        sentence: `The ${b.type} \`${b.name}\` (line ${b.line}) has a cyclomatic complexity of ${b.complexity}, rank ${b.rank} (${risk.split(" - ")[1] ?? risk}); consider breaking it up.`,
        facts: { rank: b.rank, complexity: b.complexity },
      };
    });
}
