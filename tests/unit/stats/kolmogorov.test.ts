import { describe, expect, test } from "vitest";
import { kolmogorovSf } from "@/lib/stats/kolmogorov";

// scipy.stats.kstwo.sf(x, n) (SciPy 1.17; the _kolmogn code is unchanged since 1.4), one case per branch.
const CASES: [number, number, number, string][] = [
  [10, 0.08, 0.9999978058034054, "Ruben-Gambino, n·x <= 1"],
  [10, 0.95, 1.9531250000000172e-13, "Ruben-Gambino, n·x >= n-1"],
  [10, 0.6, 0.0005681672000000003, "x >= 0.5: twice the Smirnov tail"],
  [10, 0.2, 0.7487190399999999, "Durbin matrix, n·x² <= 0.754693"],
  [10, 0.499999999, 0.007777410179180655, "Pomeranz, n·x² <= 4"],
  [100, 0.15, 0.019839242125643017, "Pomeranz"],
  [100, 0.3, 1.7719869892662917e-8, "n <= 140, n·x² > 4: Smirnov"],
  [1000, 0.03, 0.3226902143914636, "Durbin matrix, large n"],
  [1000, 0.05, 0.013012074781090332, "n·x² >= 2.2: Smirnov"],
  [200000, 0.002, 0.39995085369038097, "Pelz-Good"],
  [5000, 0.4, 0, "n·x² >= 370: 0"],
  [2000000, 0.002, 2.247704493692889e-7, "n > 10^6: Smirnov approximation"],
];

describe("kolmogorovSf (scipy.stats.kstwo.sf)", () => {
  test.each(CASES)("n=%i x=%d → %d (%s)", (n, x, expected) => {
    const p = kolmogorovSf(n, x);
    expect(Math.abs(p - expected)).toBeLessThanOrEqual(1e-7 * expected);
  });
});
