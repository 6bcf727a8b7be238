/**
 * Harmonic mean 2ab/(a+b), 0 when a + b = 0: rouge-score `scoring.fmeasure` and
 * CRScore's Rel from Con and Comp (CRScore paper eq. 3, relevance_score.py). Same operation order as both.
 */
export function harmonicMean(a: number, b: number): number {
  return a + b > 0 ? (2 * a * b) / (a + b) : 0;
}
