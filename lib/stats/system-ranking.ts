import { spearman } from "./correlation";
import { type KendallResult, kendallTauB } from "./kendall";
import type { TestResult } from "./types";

export interface SystemScore {
  system: string;
  score: number;
}

export interface SystemMeans {
  system: string;
  meanA: number;
  meanB: number;
  nA: number;
  nB: number;
}

export interface SystemRankingResult {
  /** Systems scored in both sets, with their mean scores, in first-seen order of set A. */
  systems: SystemMeans[];
  /** Systems present in only one of the two sets (left out of the correlation). */
  unmatched: string[];
  spearman: TestResult;
  kendall: KendallResult;
}

function meansBySystem(scores: readonly SystemScore[]): Map<string, { mean: number; n: number }> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const { system, score } of scores) {
    if (!Number.isFinite(score)) throw new RangeError(`score of system ${system} is not a finite number: ${score}`);
    const entry = sums.get(system) ?? { sum: 0, n: 0 };
    entry.sum += score;
    entry.n += 1;
    sums.set(system, entry);
  }
  return new Map([...sums].map(([system, { sum, n }]) => [system, { mean: sum / n, n }]));
}

/**
 * System-level ranking agreement (CRScore §5.2 "Comparing system rankings", Tables 2 and 15):
 * average each system's per-review scores in both score sets (e.g. human relevance and a
 * metric), then correlate the system means with Spearman's ρ and Kendall's τ_b (SciPy
 * semantics, see correlation.ts and kendall.ts). Systems missing from either set are
 * reported in `unmatched` and left out.
 */
export function systemRankCorrelation(a: readonly SystemScore[], b: readonly SystemScore[]): SystemRankingResult {
  const meansA = meansBySystem(a);
  const meansB = meansBySystem(b);
  const systems: SystemMeans[] = [];
  for (const [system, ma] of meansA) {
    const mb = meansB.get(system);
    if (mb) systems.push({ system, meanA: ma.mean, meanB: mb.mean, nA: ma.n, nB: mb.n });
  }
  const unmatched = [...meansA.keys(), ...meansB.keys()].filter((s) => !(meansA.has(s) && meansB.has(s)));
  const x = systems.map((s) => s.meanA);
  const y = systems.map((s) => s.meanB);
  return { systems, unmatched, spearman: spearman(x, y), kendall: kendallTauB(x, y) };
}
