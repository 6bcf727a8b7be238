/** c-CRAB's pass rates, overlap and per-category rates (lib/analysis/pass-rates.ts), on cases small enough to check by hand. */
import { describe, expect, test } from "vitest";
import { instanceScores, passedOverlap, passRates, passRatesByGroup, type BenchmarkTest, type TestOutcome } from "@/lib/analysis/pass-rates";
import { wilsonInterval } from "@/lib/stats/proportion";

/**
 * 3 pull requests and 7 tests: a (a1-a3), b (b1), c (c1-c3). X passes a1 and b1; Y a1, a2 and
 * c1; Z only c2, and has no outcome for c3.
 */
const TESTS: (BenchmarkTest & { group: string | null })[] = [
  { testId: "a1", instance: "a", group: "ROBUSTNESS" },
  { testId: "a2", instance: "a", group: "TESTING" },
  { testId: "a3", instance: "a", group: "DESIGN" },
  { testId: "b1", instance: "b", group: "ROBUSTNESS" },
  { testId: "c1", instance: "c", group: "TESTING" },
  { testId: "c2", instance: "c", group: null },
  { testId: "c3", instance: "c", group: "DESIGN" },
];
const PASSES: Record<string, string[]> = { X: ["a1", "b1"], Y: ["a1", "a2", "c1"], Z: ["c2"] };
const OUTCOMES: TestOutcome[] = Object.entries(PASSES).flatMap(([system, passed]) =>
  TESTS.filter((t) => system !== "Z" || t.testId !== "c3").map((t) => ({ system, testId: t.testId, passed: passed.includes(t.testId) })),
);

/** Type-7 quantile of three sorted values at p (the percentile interval's bounds). */
const q3 = ([a, b, c]: number[], p: number) => (2 * p <= 1 ? a + 2 * p * (b - a) : b + (2 * p - 1) * (c - b));

describe("the pass rate per instance and per system (§4.3.2, Table 5)", () => {
  test("s_i is the share of the instance's tests that passed", () => {
    expect(instanceScores(TESTS, new Set(PASSES.Y))).toEqual([
      { instance: "a", tests: 3, passed: 2, score: 2 / 3 },
      { instance: "b", tests: 1, passed: 0, score: 0 },
      { instance: "c", tests: 3, passed: 1, score: 1 / 3 },
    ]);
  });

  test("micro over tests and macro over instances differ; missing outcomes count as not passed; the human reviewers pass all", () => {
    const rows = passRates(TESTS, OUTCOMES, { bootstrap: { nResamples: 0, adaptive: false, seed: 1, confidenceLevel: 0.95 } });
    expect(rows.map((r) => [r.system, r.human, r.instances, r.tests, r.passed, r.missing, r.microPassRate.value, r.macroPassRate.value])).toEqual([
      ["human", true, 3, 7, 7, 0, 1, 1],
      ["X", false, 3, 7, 2, 0, 2 / 7, (1 / 3 + 1 + 0) / 3],
      ["Y", false, 3, 7, 3, 0, 3 / 7, (2 / 3 + 0 + 1 / 3) / 3],
      ["Z", false, 3, 7, 1, 1, 1 / 7, (0 + 0 + 1 / 3) / 3],
    ]);
    expect(rows[1].microPassRate).toEqual({ value: 2 / 7, ci: null, reason: "no resamples were asked for" });
    expect(passRates(TESTS, OUTCOMES, { humanReviewers: false }).map((r) => r.system)).toEqual(["X", "Y", "Z"]);
  });

  test("the CIs resample instances with their tests: percentile bounds of the resampled rates", () => {
    // Resamples of (a, b, c): a a a; b b c; a b c.
    const rows = passRates(TESTS, OUTCOMES, { resampleIndices: [[0, 0, 0], [1, 1, 2], [0, 1, 2]], humanReviewers: false });
    const x = rows[0];
    // X passes 1 of a's 3, b's 1, none of c's 3. Micro: 3/9, 2/5, 2/7; macro: 1/3, 2/3, 4/9.
    const micro = [2 / 7, 1 / 3, 2 / 5];
    const macro = [1 / 3, 4 / 9, 2 / 3];
    expect(x.microPassRate.ci![0]).toBeCloseTo(q3(micro, 0.025), 12);
    expect(x.microPassRate.ci![1]).toBeCloseTo(q3(micro, 0.975), 12);
    expect(x.macroPassRate.ci![0]).toBeCloseTo(q3(macro, 0.025), 12);
    expect(x.macroPassRate.ci![1]).toBeCloseTo(q3(macro, 0.975), 12);
  });

  test("seeded CIs are reproducible and hold the estimate; one instance has no CI, no test no rate", () => {
    const [human, x] = passRates(TESTS, OUTCOMES);
    expect(human.microPassRate.ci).toEqual([1, 1]);
    expect(x.microPassRate.ci![0]).toBeLessThanOrEqual(2 / 7);
    expect(x.microPassRate.ci![1]).toBeGreaterThanOrEqual(2 / 7);
    expect(passRates(TESTS, OUTCOMES)[1]).toEqual(x);
    const one = passRates(TESTS.slice(0, 3), [{ system: "X", testId: "a1", passed: true }])[1];
    expect(one.microPassRate).toEqual({ value: 1 / 3, ci: null, reason: "no bootstrap CI: every sample needs at least 2 observations" });
    expect(passRates([], [])[0].microPassRate).toEqual({ value: null, ci: null, reason: "the benchmark has no tests" });
  });

  test("outcomes of unknown tests, twice for one test, or of the human reviewers are refused", () => {
    expect(() => passRates(TESTS, [{ system: "X", testId: "z9", passed: true }])).toThrow(`system "X" has an outcome of test "z9", which is not a test of the benchmark`);
    expect(() => passRates(TESTS, [OUTCOMES[0], OUTCOMES[0]])).toThrow(`system "X" has two outcomes of test "a1"`);
    expect(() => passRates(TESTS, [{ system: "human", testId: "a1", passed: true }])).toThrow(/human reviewers pass every test/);
    expect(() => passRates([TESTS[0], TESTS[0]], [])).toThrow(`test "a1" is listed twice`);
  });
});

describe("the overlap of passed tests (Figure 5)", () => {
  test("every combination's count of tests passed by exactly those systems, the union and each system's own", () => {
    const overlap = passedOverlap(TESTS, OUTCOMES);
    expect(overlap).toEqual({
      systems: ["X", "Y", "Z"],
      tests: 7,
      union: 5,
      unionShare: 5 / 7,
      none: 2,
      combinations: [
        { systems: ["X"], passed: 1 },
        { systems: ["Y"], passed: 2 },
        { systems: ["Z"], passed: 1 },
        { systems: ["X", "Y"], passed: 1 },
        { systems: ["X", "Z"], passed: 0 },
        { systems: ["Y", "Z"], passed: 0 },
        { systems: ["X", "Y", "Z"], passed: 0 },
      ],
      unique: { X: 1, Y: 2, Z: 1 },
    });
    expect(overlap.combinations.reduce((a, c) => a + c.passed, 0)).toBe(overlap.union);
  });
});

describe("pass rates per group (Figure 7; Table 5's behavioral and structural)", () => {
  test("per system and category, with Wilson's interval; tests without a category and categories without tests", () => {
    const table = passRatesByGroup(TESTS, OUTCOMES, ["ROBUSTNESS", "TESTING", "DESIGN", "SECURITY"]);
    expect(table.groups).toEqual(["ROBUSTNESS", "TESTING", "DESIGN", "SECURITY"]);
    expect(table.ungrouped).toBe(1);
    const passedOf = (system: string) => Object.fromEntries(Object.entries(table.rows.find((r) => r.system === system)!.cells).map(([g, c]) => [g, `${c.passed}/${c.tests}`]));
    expect(passedOf("human")).toEqual({ ROBUSTNESS: "2/2", TESTING: "2/2", DESIGN: "2/2", SECURITY: "0/0" });
    expect(passedOf("X")).toEqual({ ROBUSTNESS: "2/2", TESTING: "0/2", DESIGN: "0/2", SECURITY: "0/0" });
    expect(passedOf("Y")).toEqual({ ROBUSTNESS: "1/2", TESTING: "2/2", DESIGN: "0/2", SECURITY: "0/0" });
    expect(passedOf("Z")).toEqual({ ROBUSTNESS: "0/2", TESTING: "0/2", DESIGN: "0/2", SECURITY: "0/0" });
    const y = table.rows.find((r) => r.system === "Y")!.cells;
    expect(y.ROBUSTNESS.rate).toEqual({ value: 0.5, ci: wilsonInterval(1, 2) });
    expect(y.SECURITY.rate).toEqual({ value: null, ci: null, reason: "no test of this group" });
    expect(passRatesByGroup(TESTS, OUTCOMES).groups).toEqual(["DESIGN", "ROBUSTNESS", "TESTING"]);
  });
});

describe("c-CRAB's published ratios", () => {
  // 234 tests in 184 instances (50 with two tests, 134 with one), the first 42 behavioral
  // (Table 4). Passes chosen to give Table 5's counts: Claude-Code 16 + 59, Codex 16 + 31,
  // Devin 13 + 45, PR-Agent 16 + 38 behavioral + structural; Figure 5's union 97.
  const tests = Array.from({ length: 234 }, (_, j) => ({ testId: `t${j}`, instance: `pr${j < 100 ? Math.floor(j / 2) : j - 50}`, group: j < 42 ? "behavioral" : "structural" }));
  const range = (from: number, count: number) => Array.from({ length: count }, (_, k) => `t${from + k}`);
  const passes: Record<string, string[]> = {
    "Claude-Code": [...range(0, 16), ...range(42, 59)],
    Codex: [...range(0, 16), ...range(42, 31)],
    Devin: [...range(0, 13), ...range(42, 45)],
    "PR-Agent": [...range(0, 16), ...range(85, 38)],
  };
  const outcomes = Object.entries(passes).flatMap(([system, passed]) => tests.map((t) => ({ system, testId: t.testId, passed: passed.includes(t.testId) })));
  const percent = (x: number | null) => Math.round(x! * 1000) / 10;

  test("Table 5's overall, behavioral and structural pass rates; Figure 5's union of 97 of 234 (41.5 %)", () => {
    const rows = passRates(tests, outcomes, { bootstrap: { nResamples: 0, adaptive: false, seed: 1, confidenceLevel: 0.95 } });
    expect(rows.map((r) => [r.system, r.instances, r.tests, r.passed, percent(r.microPassRate.value)])).toEqual([
      ["human", 184, 234, 234, 100],
      ["Claude-Code", 184, 234, 75, 32.1],
      ["Codex", 184, 234, 47, 20.1],
      ["Devin", 184, 234, 58, 24.8],
      ["PR-Agent", 184, 234, 54, 23.1],
    ]);
    const kinds = passRatesByGroup(tests, outcomes, ["behavioral", "structural"]);
    expect(kinds.rows.map((r) => [r.system, percent(r.cells.behavioral.rate.value), percent(r.cells.structural.rate.value)])).toEqual([
      ["human", 100, 100],
      ["Claude-Code", 38.1, 30.7],
      ["Codex", 38.1, 16.1],
      ["Devin", 31, 23.4],
      ["PR-Agent", 38.1, 19.8],
    ]);
    const overlap = passedOverlap(tests, outcomes);
    expect([overlap.union, percent(overlap.unionShare)]).toEqual([97, 41.5]);
  });
});
