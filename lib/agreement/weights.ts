import type { AnswerValue, WeightScheme } from "./types";

/**
 * Positions of the scale categories for value-based weights: the numeric values themselves,
 * or 1..q for labels (irrCAC `weights.py`, which Gwet's AC2 uses).
 */
export function scalePositions(scale: readonly AnswerValue[]): number[] {
  return scale.every((v) => typeof v === "number") ? (scale as number[]) : scale.map((_, i) => i + 1);
}

/**
 * q×q agreement weights w_kl in [0, 1] over category positions x (irrCAC `weights.py`):
 * unweighted δ_kl, linear 1 - |x_k - x_l|/(x_max - x_min), quadratic
 * 1 - (x_k - x_l)²/(x_max - x_min)². A single category gets [[1]].
 * With positions 0..q-1 these are 1 minus sklearn's cohen_kappa_score disagreement weights
 * |i-j| and (i-j)² scaled to [0, 1], which leaves κ unchanged.
 */
export function agreementWeights(scheme: WeightScheme, positions: readonly number[]): number[][] {
  const range = Math.max(...positions) - Math.min(...positions);
  return positions.map((xk) =>
    positions.map((xl) => {
      if (scheme === "unweighted" || range === 0) return xk === xl ? 1 : 0;
      const d = Math.abs(xk - xl) / range;
      return scheme === "linear" ? 1 - d : 1 - d * d;
    }),
  );
}
