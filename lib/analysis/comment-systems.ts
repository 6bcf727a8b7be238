/**
 * Review comments per system, from the consensus of comment questions (c-CRAB §5.2-5.3):
 * - Table 6: comments, useful, useful % per system, with Wilson CIs of the share;
 * - Figure 6: the distribution of categories per system beside the human reviewers'.
 * A comment counts once it has a consensus on the question (annotators unanimous, or the lead's
 * adjudicated value; c-CRAB resolved disagreements through discussion); one without is counted
 * among the system's comments and as `undecided`.
 */
import type { AnswerValue } from "@/lib/agreement";
import { wilsonInterval } from "@/lib/stats/proportion";
import { spearman } from "@/lib/stats/correlation";

/** The system of a human reviewer's comments (docs/pull-request-formats.md). */
export const HUMAN_SYSTEM = "human";

/** One review comment: its system and its consensus on the question (null: none). */
export interface SystemComment {
  system: string;
  consensus: AnswerValue | null;
}

export interface UsefulnessRow {
  system: string;
  comments: number;
  /** Comments with a consensus on usefulness. */
  decided: number;
  useful: number;
  /** useful / decided; null when none is decided. */
  share: number | null;
  ci: [number, number] | null;
}

export interface UsefulnessTable {
  question: string;
  confidenceLevel: number;
  /** Systems by name, the human reviewers' first. */
  systems: UsefulnessRow[];
  total: UsefulnessRow;
}

/** Systems in table order, each once: the human reviewers first, then by name. */
export function inTableOrder(systems: Iterable<string>): string[] {
  return [...new Set(systems)].sort((a, b) => Number(b === HUMAN_SYSTEM) - Number(a === HUMAN_SYSTEM) || (a < b ? -1 : a > b ? 1 : 0));
}

function systemsOf(comments: readonly SystemComment[]): string[] {
  return inTableOrder(comments.map((c) => c.system));
}

function usefulnessRow(system: string, comments: readonly SystemComment[], yes: AnswerValue, confidenceLevel: number): UsefulnessRow {
  const decided = comments.filter((c) => c.consensus !== null);
  const useful = decided.filter((c) => c.consensus === yes).length;
  return { system, comments: comments.length, decided: decided.length, useful, share: decided.length === 0 ? null : useful / decided.length, ci: wilsonInterval(useful, decided.length, confidenceLevel) };
}

/** c-CRAB Table 6 from each comment's consensus on a yes/no question (`yes` the useful answer). */
export function usefulnessTable(question: string, comments: readonly SystemComment[], yes: AnswerValue = "yes", confidenceLevel = 0.95): UsefulnessTable {
  return {
    question,
    confidenceLevel,
    systems: systemsOf(comments).map((system) => usefulnessRow(system, comments.filter((c) => c.system === system), yes, confidenceLevel)),
    total: usefulnessRow("total", comments, yes, confidenceLevel),
  };
}

export interface CategoryRow {
  system: string;
  human: boolean;
  comments: number;
  /** Comments with a consensus category. */
  decided: number;
  /** Per category code, in the codebook's order: how many, and their share of the decided comments (null when none is decided). */
  counts: Record<string, number>;
  shares: Record<string, number | null>;
}

export interface CategoryDistribution {
  question: string;
  categories: { code: string; label: string }[];
  /** The human reviewers first (`human`), then the systems by name. */
  systems: CategoryRow[];
}

/** c-CRAB Figure 6: each system's share of comments per category, from each comment's consensus category. */
export function categoryDistribution(question: string, categories: readonly { code: string; label: string }[], comments: readonly SystemComment[]): CategoryDistribution {
  return {
    question,
    categories: categories.map(({ code, label }) => ({ code, label })),
    systems: systemsOf(comments).map((system) => {
      const own = comments.filter((c) => c.system === system);
      const decided = own.filter((c) => c.consensus !== null);
      const counts = Object.fromEntries(categories.map((c) => [c.code, decided.filter((d) => d.consensus === c.code).length]));
      const shares = Object.fromEntries(categories.map((c) => [c.code, decided.length === 0 ? null : counts[c.code] / decided.length]));
      return { system, human: system === HUMAN_SYSTEM, comments: own.length, decided: decided.length, counts, shares };
    }),
  };
}

/** c-CRAB's two views of a tool side by side: the share of its comments judged useful (Table 6) and its mean s_i (Table 5's macro pass rate). */
export interface UsefulnessAgainstScores {
  method: string;
  /** The systems with both figures (the human reviewers left out: their tests pass by construction). */
  systems: { system: string; usefulShare: number; meanScore: number }[];
  /** Spearman's ρ over those systems, its p-value and n; null with the reason when undefined (fewer than two systems, a constant figure). */
  rho: number | null;
  pValue: number | null;
  n: number;
  reason?: string;
}

/** Spearman's ρ of the systems' useful share with their mean s_i (the human reviewers left out). */
export function usefulnessAgainstScores(usefulness: UsefulnessTable, meanScores: ReadonlyMap<string, number | null>): UsefulnessAgainstScores {
  const systems = usefulness.systems.flatMap((row) => {
    const meanScore = meanScores.get(row.system);
    return row.system === HUMAN_SYSTEM || row.share === null || meanScore === null || meanScore === undefined ? [] : [{ system: row.system, usefulShare: row.share, meanScore }];
  });
  const method = "Spearman's ρ of each system's useful share (c-CRAB Table 6) with its mean s_i (Table 5's macro pass rate), over the systems with both";
  const result = spearman(
    systems.map((s) => s.usefulShare),
    systems.map((s) => s.meanScore),
  );
  return { method, systems, rho: result.statistic, pValue: result.pValue, n: result.n, ...(result.reason === undefined ? {} : { reason: result.reason }) };
}
