/** The study page's Table 6 and Figure 6 tables (components/dashboard/comment-systems.ts): cells, raw values for the CSV, undefined values with their reasons. */
import { describe, expect, test } from "vitest";
import { categoryDistribution, usefulnessTable, type SystemComment } from "@/lib/analysis/comment-systems";
import { categoryBars, categoryTableData, usefulnessTableData } from "@/components/dashboard/comment-systems";
import { wilsonInterval } from "@/lib/stats/proportion";

const comments: SystemComment[] = [
  ...Array.from({ length: 4 }, (_, i) => ({ system: "claude-code", consensus: i < 3 ? "yes" : "no" })),
  { system: "human", consensus: "yes" },
  { system: "human", consensus: null },
  { system: "codex", consensus: null },
];

describe("Table 6 on the study page", () => {
  const table = usefulnessTableData("prq", usefulnessTable("useful", comments));

  test("a row per system, the human reviewers first, then the total; the share and its Wilson interval as raw numbers", () => {
    expect(table.rows.map((r) => r.key)).toEqual(["human", "claude-code", "codex", "total"]);
    const claude = table.rows[1].cells;
    expect(claude.map((c) => c.text)).toEqual(["claude-code", "4", "4", "3", "75.00 %", expect.stringMatching(/ %$/), expect.stringMatching(/ %$/)]);
    const [low, high] = wilsonInterval(3, 4)!;
    expect([claude[4].value, claude[5].value, claude[6].value]).toEqual([0.75, low, high]);
    expect(table.rows[3].cells.slice(1, 4).map((c) => c.value)).toEqual([7, 5, 4]);
    expect(table.columns.map((c) => c.label)).toEqual(["System", "Comments", "Decided", "Useful", "Useful %", "95 % CI low", "95 % CI high"]);
  });

  test("a system with no decided comment has no share: undefined, with why", () => {
    const codex = table.rows[2].cells;
    expect(codex[4]).toMatchObject({ text: "—", value: null });
    expect(codex[5].value).toBeNull();
    expect(codex[4].title).toMatch(/None of its 1 comments has a consensus on "useful"/);
    // The human reviewers: one of two decided, said in the hover text of the decided count.
    expect(table.rows[0].cells[2]).toMatchObject({ value: 1, title: "1 without a consensus yet" });
  });

  test("no comment at all: no rows, the empty text says what to do", () => {
    const empty = usefulnessTableData("prq", usefulnessTable("useful", []));
    expect(empty.rows).toEqual([]);
    expect(empty.empty).toMatch(/import a pull request/);
  });
});

describe("Figure 6 on the study page", () => {
  const categories = [
    { code: "TESTING", label: "Testing" },
    { code: "SECURITY", label: "Security" },
  ];
  const d = categoryDistribution("category", categories, [
    { system: "codex", consensus: "TESTING" },
    { system: "codex", consensus: "SECURITY" },
    { system: "codex", consensus: "SECURITY" },
    { system: "human", consensus: null },
  ]);

  test("each category's share of the decided comments with its count; bars in percent, the human reviewers first", () => {
    const t = categoryTableData("prq", d);
    expect(t.rows.map((r) => r.key)).toEqual(["human", "codex"]);
    expect(t.rows[1].cells.slice(3).map((c) => [c.value, c.sub])).toEqual([
      [1 / 3, "n 1"],
      [2 / 3, "n 2"],
    ]);
    expect(t.rows[0].cells[3]).toMatchObject({ value: null, title: expect.stringMatching(/consensus on "category"/) });
    const bars = categoryBars(d);
    expect(bars[0]).toMatchObject({ system: "Human reviewers", decided: 0, TESTING: 0, SECURITY: 0 });
    expect(bars[1].TESTING as number).toBeCloseTo(100 / 3, 12);
    expect((bars[1].TESTING as number) + (bars[1].SECURITY as number)).toBeCloseTo(100, 12);
  });
});
