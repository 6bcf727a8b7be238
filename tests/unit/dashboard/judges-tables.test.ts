/**
 * The agreement page's "Judges" section (components/dashboard/judges-tables.ts) on the worked
 * example of tests/unit/analysis/judge-agreement.test.ts: the report's numbers in the cells,
 * raw for the CSV, undefined ones with their reasons, and the bars of SWE-Judge Figure 4.
 */
import { describe, expect, test } from "vitest";
import { buildAnswerTable, type Rating } from "@/lib/agreement";
import { judgeAgreement } from "@/lib/analysis/judge-agreement";
import { bootstrapSettings } from "@/lib/analysis/resample";
import { judgeConsensusTable, judgeKappaBars, judgeKappaTable, judgePerAnnotatorTable } from "@/components/dashboard/judges-tables";

const ANSWERS: Record<string, string> = { A: "yynnyn", B: "ynnnyy", C: "yynyyn", J: "yynnnn" };
const ratings: Rating[] = Object.entries(ANSWERS).flatMap(([rater, answers]) => [...answers].map((a, i) => ({ item: `i${i + 1}`, rater, value: a === "y" ? "yes" : "no" })));
const names = new Map([["A", "ann"], ["B", "bob"], ["C", "cat"], ["J", "judge:j"]]);
const consensus = new Map([..."yynnyn"].map((a, i) => [`i${i + 1}`, a === "y" ? 1 : 0]));
const judges = judgeAgreement(buildAnswerTable(ratings, { scale: ["no", "yes"] }), new Set(["J"]), names, consensus, { weights: "unweighted", bootstrap: bootstrapSettings({ nResamples: 200, seed: 3 }) });
const q = { task: "COMMENT_FILTERING" as const, question: "high-quality" };

describe("the Judges section of the agreement page", () => {
  test("κ table: Human–Human min, max and mean over the 3 pairs, the judge's mean with its CI over 3 annotators", () => {
    const t = judgeKappaTable("demo", q, judges);
    expect(t.rows.map((r) => r.key)).toEqual(["human-human", "judge:j"]);
    const [hh, j] = t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c.key, r.cells[i]])));
    expect([hh.mean.value, hh.min.value, hh.max.value, hh.pairs.value]).toEqual([judges.humanHuman.mean, 0, judges.humanHuman.max, 3]);
    expect(hh.mean.value).toBeCloseTo(1 / 3, 12);
    expect(j.mean.value).toBeCloseTo(16 / 45, 12);
    expect([j.ciLow.value, j.ciHigh.value]).toEqual([judges.humanJudge["judge:j"].ci!.low, judges.humanJudge["judge:j"].ci!.high]);
    expect(j.pairs.value).toBe(3);
    expect(t.filename).toBe("demo-agreement-comment_filtering-high-quality-judges-kappa");
  });

  test("per-annotator table: the judge's κ with ann, bob and cat, with n", () => {
    const t = judgePerAnnotatorTable("demo", q, judges);
    expect(t.columns.map((c) => c.label)).toEqual(["Judge", "ann", "bob", "cat"]);
    expect(t.rows[0].cells.slice(1).map((c) => c.value)).toEqual([expect.closeTo(2 / 3, 12), expect.closeTo(0, 12), expect.closeTo(2 / 5, 12)]);
    expect(t.rows[0].cells[1].data).toEqual({ n: 6 });
  });

  test("consensus table: accuracy 5/6, precision 1, recall 2/3, F1 4/5, each with its interval's bounds", () => {
    const t = judgeConsensusTable("demo", q, judges);
    const cells = Object.fromEntries(t.columns.map((c, i) => [c.key, t.rows[0].cells[i]]));
    expect([cells.items.value, cells.positive.text, cells.accuracy.value, cells.precision.value, cells.recall.value]).toEqual([6, "yes", 5 / 6, 1, 2 / 3]);
    expect(cells.f1.value).toBeCloseTo(4 / 5, 12);
    const c = judges.againstConsensus["judge:j"];
    expect([cells.accuracyLow.value, cells.accuracyHigh.value]).toEqual(c.accuracy.ci);
    expect(cells.accuracy.text).toBe("83.33 %");
  });

  test("a question with one annotator: Human–Human undefined, and the table says why", () => {
    const one = judgeAgreement(buildAnswerTable(ratings.filter((r) => r.rater === "A" || r.rater === "J"), { scale: ["no", "yes"] }), new Set(["J"]), names, new Map(), { weights: "unweighted", bootstrap: null });
    const t = judgeKappaTable("demo", q, one);
    const why = t.columns.findIndex((c) => c.key === "why");
    expect(t.rows[0].cells[why].text).toBe("one annotator: no pair of annotators to compare");
    expect(t.rows[0].cells[1]).toMatchObject({ text: "—", value: null });
    const consensusCells = judgeConsensusTable("demo", q, one).rows[0].cells;
    expect(consensusCells[3]).toMatchObject({ value: null, sub: "no item the judge answered has a consensus answer" });
  });

  test("Figure 4's bars: min, max, mean Human–Human (human), then the judge's mean with its CI (judge)", () => {
    const bars = judgeKappaBars(judges);
    expect(bars.map((b) => [b.label, b.kind])).toEqual([
      ["Min Human–Human", "human"],
      ["Max Human–Human", "human"],
      ["Mean Human–Human", "human"],
      ["Mean Human–judge:j", "judge"],
    ]);
    expect(bars[3].kappa).toBeCloseTo(16 / 45, 12);
    expect(bars[3].ci).toEqual([judges.humanJudge["judge:j"].ci!.low, judges.humanJudge["judge:j"].ci!.high]);
  });
});
