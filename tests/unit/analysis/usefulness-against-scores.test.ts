/** Each system's useful share (c-CRAB Table 6) against its mean s_i (Table 5's macro pass rate): Spearman's ρ by hand, the human reviewers left out, and why it is undefined. */
import { describe, expect, test } from "vitest";
import { usefulnessAgainstScores, type UsefulnessTable } from "@/lib/analysis/comment-systems";

const row = (system: string, decided: number, useful: number) => ({ system, comments: decided, decided, useful, share: decided === 0 ? null : useful / decided, ci: null });
const table = (rows: ReturnType<typeof row>[]): UsefulnessTable => ({ question: "useful", confidenceLevel: 0.95, systems: rows as never, total: row("total", 0, 0) as never });

describe("usefulnessAgainstScores", () => {
  test("ρ over the systems with both figures: shares A 0.5, B 0.8, C 0.2 against mean s_i A 0.3, B 0.1, C 0.2", () => {
    // Ranks of the shares C 1, A 2, B 3; of the scores B 1, C 2, A 3. d = (−1, 2, −1), Σd² = 6, ρ = 1 − 6·6 / (3·(9 − 1)) = −0.5.
    const scores = new Map<string, number | null>([["human", 1], ["A", 0.3], ["B", 0.1], ["C", 0.2], ["D", null]]);
    const result = usefulnessAgainstScores(table([row("human", 4, 4), row("A", 4, 2), row("B", 5, 4), row("C", 5, 1), row("D", 2, 1), row("E", 0, 0)]), scores);
    expect(result.systems.map((s) => s.system)).toEqual(["A", "B", "C"]);
    expect(result.n).toBe(3);
    expect(result.rho).toBeCloseTo(-0.5, 12);
    expect(result.reason).toBeUndefined();
  });

  test("undefined with its reason: one system, or a constant share", () => {
    expect(usefulnessAgainstScores(table([row("A", 4, 2)]), new Map([["A", 0.5]]))).toMatchObject({ rho: null, n: 1, reason: "needs at least 2 pairs, got 1" });
    expect(usefulnessAgainstScores(table([row("A", 4, 2), row("B", 2, 1)]), new Map([["A", 0.5], ["B", 0.1]]))).toMatchObject({ rho: null, n: 2, reason: expect.stringContaining("constant") });
  });
});
