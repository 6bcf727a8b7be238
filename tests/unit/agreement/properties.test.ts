import { describe, expect, test } from "vitest";
import {
  cohenKappa,
  fleissKappa,
  gwetAc,
  krippendorffAlpha,
  leastAgreement,
  pairConfusions,
  pairedValues,
  pairKappa,
  pairwiseMatrix,
  perItemAgreement,
  percentAgreement,
  type Rating,
  selectRaters,
  buildAnswerTable,
} from "@/lib/agreement";
import { seededRandom } from "@/lib/stats";

/** Random ragged ratings: `items` × `raters`, values 1..5 with a shared item effect, some missing. */
function randomRatings(seed: number, items = 60, raters = 4, missing = 0.2): Rating[] {
  const random = seededRandom(seed);
  const ratings: Rating[] = [];
  for (let i = 0; i < items; i++) {
    const truth = 1 + Math.floor(random() * 5);
    for (let r = 0; r < raters; r++) {
      if (random() < missing) continue;
      const noise = random() < 0.3 ? (random() < 0.5 ? -1 : 1) : 0;
      ratings.push({ item: `i${i}`, rater: `r${r}`, value: Math.min(5, Math.max(1, truth + noise)) });
    }
  }
  return ratings;
}

const LEVELS = ["nominal", "ordinal", "interval", "ratio"] as const;

describe("properties", () => {
  test.each([1, 2, 3])("Cohen's kappa is symmetric in the two raters (seed %i)", (seed) => {
    const ratings = randomRatings(seed);
    for (const weights of ["unweighted", "linear", "quadratic"] as const) {
      const ab = cohenKappa(ratings, { raters: ["r0", "r1"], weights });
      const ba = cohenKappa(ratings, { raters: ["r1", "r0"], weights });
      expect(ba.value).toBeCloseTo(ab.value as number, 14);
      expect(ba.n).toBe(ab.n);
    }
  });

  test.each([1, 2, 3])("alpha, Fleiss, Gwet and percent agreement do not change when raters are relabelled or reordered (seed %i)", (seed) => {
    const ratings = randomRatings(seed);
    const renamed = ratings.map((r) => ({ ...r, rater: `coder-${r.rater.split("").reverse().join("")}` })).reverse();
    for (const level of LEVELS) {
      expect(krippendorffAlpha(renamed, { level }).value).toBeCloseTo(krippendorffAlpha(ratings, { level }).value as number, 13);
    }
    expect(fleissKappa(renamed).value).toBeCloseTo(fleissKappa(ratings).value as number, 13);
    expect(gwetAc(renamed, { weights: "quadratic" }).value).toBeCloseTo(gwetAc(ratings, { weights: "quadratic" }).value as number, 13);
    expect(percentAgreement(renamed).value).toBeCloseTo(percentAgreement(ratings).value as number, 13);
  });

  test("alpha for binary data is the same at every level", () => {
    const ratings = randomRatings(9).map((r) => ({ ...r, value: (r.value as number) >= 3 ? 1 : 0 }));
    const nominal = krippendorffAlpha(ratings, { level: "nominal" }).value as number;
    for (const level of ["ordinal", "interval"] as const) expect(krippendorffAlpha(ratings, { level }).value).toBeCloseTo(nominal, 13);
  });

  test("pairwise matrix: symmetric, null diagonal, each cell equals the direct computation", () => {
    const ratings = randomRatings(4);
    const m = pairwiseMatrix(ratings, (t, a, b) => cohenKappa(t, { raters: [a, b], weights: "linear" }));
    expect(m.raters).toEqual(["r0", "r1", "r2", "r3"]);
    m.raters.forEach((a, i) => {
      expect(m.matrix[i][i]).toBeNull();
      m.raters.forEach((b, j) => {
        if (i === j) return;
        expect(m.matrix[i][j]).toBe(m.matrix[j][i]);
        expect(m.matrix[i][j]?.value).toBeCloseTo(cohenKappa(ratings, { raters: [a, b], weights: "linear" }).value as number, 14);
      });
    });
  });

  test("two-rater alpha from selectRaters matches alpha on the pair's own ratings", () => {
    const ratings = randomRatings(5);
    const table = buildAnswerTable(ratings);
    const m = pairwiseMatrix(table, (t, a, b) => krippendorffAlpha(selectRaters(t, [a, b]), { level: "ordinal" }));
    const own = ratings.filter((r) => r.rater === "r1" || r.rater === "r3");
    expect(m.matrix[1][3]?.value).toBeCloseTo(krippendorffAlpha(own, { level: "ordinal" }).value as number, 14);
  });
});

describe("pair confusions and the least-agreement items (one pass instead of one per pair or item)", () => {
  const cases = [
    ...[1, 2, 3, 4].map((seed) => randomRatings(seed, 80, 5, 0.3)),
    // Labels, one rater on some items, a rater who shares no item with another.
    [...randomRatings(5, 30, 3, 0.4).map((r) => ({ ...r, value: `v${r.value}` })), { item: "solo", rater: "r9", value: "v1" }],
  ];

  test("each pair's counts are those of pairedValues, rows the first rater's categories, and its kappa cohenKappa's", () => {
    for (const ratings of cases) {
      const table = buildAnswerTable(ratings);
      const { n, counts } = pairConfusions(table);
      const R = table.raters.length;
      const q = table.scale.length;
      for (let i = 0; i < R; i++) {
        for (let j = i + 1; j < R; j++) {
          const pairs = pairedValues(table, table.raters[i], table.raters[j]);
          const expected = new Array<number>(q * q).fill(0);
          for (let k = 0; k < pairs.items.length; k++) expected[pairs.a[k] * q + pairs.b[k]]++;
          expect(n[i * R + j]).toBe(pairs.items.length);
          // A pair with no item in common has no counts at all.
          if (pairs.items.length === 0) expect(counts[i * R + j]).toBeUndefined();
          else expect(Array.from(counts[i * R + j] ?? [])).toEqual(expected);
          for (const weights of ["unweighted", "quadratic"] as const) {
            const names = [table.raters[i], table.raters[j]] as const;
            expect(pairKappa(table, i, j, weights, names)).toEqual(cohenKappa(table, { raters: names, weights }));
          }
        }
      }
    }
  });

  test("leastAgreement equals perItemAgreement sorted (agreement, widest range, order) and cut, for any count and ties in order", () => {
    const random = seededRandom(11);
    for (const ratings of cases) {
      const table = buildAnswerTable(ratings);
      // Orders with ties (a stable sort keeps table order among them).
      const order = table.items.map(() => Math.floor(random() * 10));
      const sorted = perItemAgreement(table)
        .map((p, u) => ({ p, u }))
        .filter(({ p }) => p.agreement !== null && p.agreement < 1)
        .sort((a, b) => (a.p.agreement as number) - (b.p.agreement as number) || (b.p.range ?? 0) - (a.p.range ?? 0) || order[a.u] - order[b.u])
        .map(({ p }) => p);
      for (const count of [0, 1, 5, 20, 1000]) expect(leastAgreement(table, count, order)).toEqual(sorted.slice(0, count));
    }
  });
});
