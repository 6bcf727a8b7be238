/** SWE-Judge's pure parts with hand-computed examples: candidate teams, ensembling, scale mapping, team trials. */
import { describe, expect, test } from "vitest";
import { averagedCorrelation, calibrationSample, candidateTeams, ensembleScore, mapToScale, selectTeam, SWE_STRATEGIES, toScalePoint, type AnnotatedSample } from "@/lib/judges";

describe("candidate teams (§3.2 Initial Teaming)", () => {
  test("57 teams of at least two of the six variants, smallest first", () => {
    const teams = candidateTeams();
    expect(teams).toHaveLength(57);
    expect(teams.filter((t) => t.length === 2)).toHaveLength(15);
    expect(teams[0]).toEqual(["P1a", "P1b"]);
    expect(teams.at(-1)).toEqual([...SWE_STRATEGIES]);
    expect(new Set(teams.map((t) => t.join("+"))).size).toBe(57);
  });

  test("other pools and sizes", () => {
    expect(candidateTeams(["P1a", "P3", "P5"])).toEqual([
      ["P1a", "P3"],
      ["P1a", "P5"],
      ["P3", "P5"],
      ["P1a", "P3", "P5"],
    ]);
    expect(candidateTeams(["P3", "P4"], 1)).toEqual([["P3"], ["P4"], ["P3", "P4"]]);
    expect(() => candidateTeams(["P3", "P3"])).toThrow("distinct");
  });
});

describe("ensembling and mapping (§3.3)", () => {
  test("the mean of the team's scores; null when a member has none", () => {
    expect(ensembleScore({ P1a: 40, P3: 70, P5: 100 }, ["P1a", "P3", "P5"])).toBe(70);
    expect(ensembleScore({ P1a: 40, P3: 70, P5: 100 }, ["P3"])).toBe(70);
    expect(ensembleScore({ P1a: 40 }, ["P1a", "P2"])).toBeNull();
  });

  test("ŝ/100·4 + 1 onto 1-5, and the same line onto other scales", () => {
    const five = { min: 1, max: 5 };
    expect([0, 25, 50, 65, 100].map((s) => mapToScale(s, five))).toEqual([1, 2, 3, 3.6, 5]);
    expect(mapToScale(25, { min: 0, max: 4 })).toBe(1);
    expect(mapToScale(70, { min: 0, max: 1 })).toBe(0.7);
    expect(() => mapToScale(101, five)).toThrow(RangeError);
    expect(() => mapToScale(Number.NaN, five)).toThrow(RangeError);
  });

  test("nearest scale point for kappa", () => {
    const five = { min: 1, max: 5 };
    expect([1, 2.49, 2.5, 3.6, 5].map((v) => toScalePoint(v, five))).toEqual([1, 2, 3, 4, 5]);
    expect(toScalePoint(0.2, five)).toBe(1);
  });
});

describe("team trials (§3.2) with the averaged correlation of §4.3", () => {
  // Human 1-4; P1a ranks perfectly, P3 backwards, P5 swaps the middle two.
  const samples: AnnotatedSample[] = [
    { human: 1, scores: { P1a: 10, P3: 40, P5: 10 } },
    { human: 2, scores: { P1a: 20, P3: 30, P5: 30 } },
    { human: 3, scores: { P1a: 30, P3: 20, P5: 20 } },
    { human: 4, scores: { P1a: 40, P3: 10, P5: 40 } },
  ];
  const strategies = ["P1a", "P3", "P5"] as const;

  test("averaged correlation, checked against SciPy", () => {
    // P1a+P5 ensemble [10, 25, 25, 40]: τ-b = 5/√30, r_s = r_p = 3/√10.
    const c = averagedCorrelation([10, 25, 25, 40], [1, 2, 3, 4]);
    expect(c.kendall).toBeCloseTo(0.912870929175277, 12);
    expect(c.spearman).toBeCloseTo(0.9486832980505139, 12);
    expect(c.pearson).toBeCloseTo(0.9486832980505138, 12);
    expect(c.mean).toBeCloseTo((5 / Math.sqrt(30) + 6 / Math.sqrt(10)) / 3, 12);
    expect(averagedCorrelation([25, 25, 25, 25], [1, 2, 3, 4]).mean).toBeNull();
  });

  test("the best averaged correlation wins; a constant ensemble ranks last", () => {
    const selection = selectTeam(samples, { strategies });
    expect(selection.team).toEqual(["P1a", "P5"]);
    expect(selection.n).toBe(4);
    expect(selection.correlation.mean).toBeCloseTo(0.93675, 5);
    // All three: [20, 26.7, 23.3, 30] → τ = 2/3, r_s = r_p = 0.8.
    const all = selection.trials.find((t) => t.team.length === 3);
    expect(all?.correlation.mean).toBeCloseTo((2 / 3 + 0.8 + 0.8) / 3, 12);
    expect(selection.trials.map((t) => t.team.join("+"))).toEqual(["P1a+P5", "P1a+P3+P5", "P3+P5", "P1a+P3"]);
    expect(selection.trials.at(-1)?.correlation.mean).toBeNull(); // P1a+P3 is constant 25
  });

  test("ties go to the smaller team, then to the candidate order", () => {
    const same: AnnotatedSample[] = [1, 2, 3].map((h) => ({ human: h, scores: { P1a: h * 10, P1b: h * 10, P3: h * 10 } }));
    const selection = selectTeam(same, { strategies: ["P1a", "P1b", "P3"] });
    expect(selection.team).toEqual(["P1a", "P1b"]);
    expect(selection.correlation.mean).toBeCloseTo(1, 12);
  });

  test("missing strategy scores and constant human scores are errors", () => {
    expect(() => selectTeam([{ human: 1, scores: { P1a: 1 } }], { strategies })).toThrow("sample 0 has no P3 score");
    const flat = samples.map((s) => ({ ...s, human: 3 }));
    expect(() => selectTeam(flat, { strategies })).toThrow("no team's scores correlate");
  });
});

describe("calibration sample (§3.2: 10 random annotated items)", () => {
  const items = Array.from({ length: 50 }, (_, i) => i);

  test("seeded, without replacement, in the original order", () => {
    const a = calibrationSample(items, 10, 7);
    expect(a).toHaveLength(10);
    expect(new Set(a).size).toBe(10);
    expect([...a].sort((x, y) => x - y)).toEqual(a);
    expect(calibrationSample(items, 10, 7)).toEqual(a);
    expect(calibrationSample(items, 10, 8)).not.toEqual(a);
  });

  test("all items when there are too few", () => {
    expect(calibrationSample([3, 1, 2], 10)).toEqual([3, 1, 2]);
  });
});
