/** c-CRAB Table 6 and Figure 6 from comments' consensus (lib/analysis/comment-systems.ts), and Wilson's interval (lib/stats/proportion.ts). */
import { describe, expect, test } from "vitest";
import { categoryDistribution, usefulnessTable, type SystemComment } from "@/lib/analysis/comment-systems";
import { normalQuantile, wilsonInterval } from "@/lib/stats/proportion";
import { CCRAB_CATEGORIES } from "@/lib/annotation/comment-questions";

describe("Wilson's interval", () => {
  test("the normal quantile matches SciPy's norm.ppf", () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 14);
    expect(normalQuantile(0.3)).toBeCloseTo(-0.5244005127080409, 14);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 12);
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });

  test("c-CRAB Table 6's Claude Code (31 of 40) and total (77 of 92); none useful; nothing decided", () => {
    // Reference: the score interval's closed form with z = norm.ppf(0.975) in Python.
    const [lo, hi] = wilsonInterval(31, 40)!;
    expect(lo).toBeCloseTo(0.6249690325768998, 12);
    expect(hi).toBeCloseTo(0.8768390867645927, 12);
    expect(wilsonInterval(77, 92)![0]).toBeCloseTo(0.7482715701531195, 12);
    expect(wilsonInterval(77, 92)![1]).toBeCloseTo(0.8986301022848311, 12);
    expect(wilsonInterval(0, 8)![0]).toBe(0);
    expect(wilsonInterval(0, 8)![1]).toBeCloseTo(0.32440756488388023, 12);
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

/** c-CRAB Table 6's counts as comments: per tool, `useful` yes and the rest no. */
function table6Comments(): SystemComment[] {
  const rows: [string, number, number][] = [
    ["Claude Code", 40, 31],
    ["Codex", 8, 7],
    ["Devin", 26, 22],
    ["PR-Agent", 18, 17],
  ];
  return rows.flatMap(([system, comments, useful]) => Array.from({ length: comments }, (_, i) => ({ system, consensus: i < useful ? "yes" : "no" })));
}

describe("Table 6", () => {
  test("recomputes c-CRAB's counts and percentages (78 %, 88 %, 85 %, 94 %; 84 % of 92)", () => {
    const table = usefulnessTable("useful", table6Comments());
    expect(table.systems.map((r) => [r.system, r.comments, r.useful, Math.round(r.share! * 100)])).toEqual([
      ["Claude Code", 40, 31, 78],
      ["Codex", 8, 7, 88],
      ["Devin", 26, 22, 85],
      ["PR-Agent", 18, 17, 94],
    ]);
    expect([table.total.comments, table.total.useful, Math.round(table.total.share! * 100)]).toEqual([92, 77, 84]);
    expect(table.systems[0].ci).toEqual(wilsonInterval(31, 40));
  });

  test("comments without a consensus count as comments, not in the share; human reviewers first", () => {
    const table = usefulnessTable("useful", [
      { system: "tool", consensus: "yes" },
      { system: "tool", consensus: null },
      { system: "human", consensus: "no" },
    ]);
    expect(table.systems.map((r) => [r.system, r.comments, r.decided, r.share])).toEqual([
      ["human", 1, 1, 0],
      ["tool", 2, 1, 1],
    ]);
    expect(usefulnessTable("useful", [{ system: "tool", consensus: null }]).systems[0]).toMatchObject({ share: null, ci: null });
  });
});

describe("Figure 6", () => {
  test("each system's share per category of its decided comments, in the codebook's order", () => {
    const comments: SystemComment[] = [
      { system: "human", consensus: "DESIGN" },
      { system: "human", consensus: "DOCUMENTATION" },
      { system: "bot", consensus: "ROBUSTNESS" },
      { system: "bot", consensus: "ROBUSTNESS" },
      { system: "bot", consensus: "TESTING" },
      { system: "bot", consensus: null },
    ];
    const figure = categoryDistribution("category", CCRAB_CATEGORIES, comments);
    expect(figure.categories.map((c) => c.code)).toEqual(CCRAB_CATEGORIES.map((c) => c.code));
    const [human, bot] = figure.systems;
    expect([human.system, human.human, human.shares.DESIGN, human.shares.DOCUMENTATION, human.shares.SECURITY]).toEqual(["human", true, 0.5, 0.5, 0]);
    expect([bot.comments, bot.decided, bot.counts.ROBUSTNESS, bot.shares.ROBUSTNESS, bot.shares.TESTING]).toEqual([4, 3, 2, 2 / 3, 1 / 3]);
    expect(Object.values(bot.shares).reduce((a, b) => a! + b!, 0)).toBeCloseTo(1, 12);
  });
});
