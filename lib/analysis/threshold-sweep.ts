/**
 * CRScore's robustness to τ (CRScore Table 18): Con / Comp / Rel recomputed at thresholds
 * around the one the scores were stored with, from the best matches each score keeps in its
 * detail (no embedding again), and correlated with the human score.
 */
import { z } from "zod";
import { crscoreFromBestMatches } from "@/lib/metrics";
import { kendallTauB, spearman } from "@/lib/stats";

const detailSchema = z.object({
  tau: z.number(),
  reviewSentenceBest: z.array(z.number().nullable()),
  pseudoReferenceBest: z.array(z.number().nullable()),
});

/** Offsets around the stored τ; Table 18 sweeps 0.6-0.8 around τ_best = 0.7314. */
export const SWEEP_OFFSETS = [-0.1, -0.05, -0.025, 0, 0.025, 0.05, 0.1];

const FIELD = { "crscore-con": "conciseness", "crscore-comp": "comprehensiveness", "crscore-rel": "relevance" } as const;

export interface SweepRow {
  tau: number;
  /** True for the τ the stored scores use. */
  stored: boolean;
  n: number;
  meanMetric: number | null;
  spearman: { statistic: number | null; pValue: number | null };
  kendall: { statistic: number | null; pValue: number | null };
}

export function isCrscoreColumn(metric: string): metric is keyof typeof FIELD {
  return metric in FIELD;
}

/** The sweep for a CRScore column over reviews with a stored detail and a human score; null when details are missing. */
export function thresholdSweep(metric: keyof typeof FIELD, points: readonly { reviewId: string; human: number }[], details: ReadonlyMap<string, unknown>): SweepRow[] | null {
  const parsed = points.map((p) => ({ human: p.human, detail: detailSchema.safeParse(details.get(p.reviewId)) }));
  if (parsed.length === 0 || parsed.some((p) => !p.detail.success)) return null;
  const matches = parsed.map((p) => ({ human: p.human, detail: p.detail.data as z.infer<typeof detailSchema> }));
  const storedTau = matches[0].detail.tau;
  return SWEEP_OFFSETS.map((offset) => {
    const tau = Number((storedTau + offset).toFixed(4));
    const x: number[] = [];
    const y: number[] = [];
    for (const m of matches) {
      const value = crscoreFromBestMatches(m.detail, tau)[FIELD[metric]];
      if (value === null) continue;
      x.push(value);
      y.push(m.human);
    }
    const rho = spearman(x, y);
    const tauB = kendallTauB(x, y);
    return {
      tau,
      stored: offset === 0,
      n: x.length,
      meanMetric: x.length === 0 ? null : x.reduce((s, v) => s + v, 0) / x.length,
      spearman: { statistic: rho.statistic, pValue: rho.pValue },
      kendall: { statistic: tauB.statistic, pValue: tauB.pValue },
    };
  });
}
