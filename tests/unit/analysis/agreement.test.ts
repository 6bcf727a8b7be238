import { describe, expect, test } from "vitest";
import { buildAnswerTable, cohenKappa, ItemResamples, krippendorffAlpha, leastAgreement, type Rating } from "@/lib/agreement";
import { questionTable } from "@/lib/analysis/agreement-report";
import { bootstrapSettings, coefficientDefinitions, coefficientReports, itemBootstrapCi, itemBootstrapCis, meanPairwiseCohen, type Question, questionAgreement, resampleItems, type StudyItem, tablesCoefficientReports, taskQuestions } from "@/lib/analysis";
import { seededRandom } from "@/lib/stats";
import { claimCodeOfNumber } from "@/lib/import/claim-codes";
import { nearly, nearlyInterval } from "../agreement/summation-order";
import { hasPhase1, readClaimSheet } from "../claims/crscore-phase1";

// The paper's reliability set: the last 100 claims both annotators judged, sheet rows 395-494 (CRScore §4.2).
const paperReliabilitySet = { name: "paper rows 395-494", kind: "reliability", ids: Array.from({ length: 100 }, (_, k) => `c/${395 + k}`) };
const settings = { bootstrap: bootstrapSettings({ nResamples: 200 }), windowSize: 50, reliabilitySet: paperReliabilitySet, disagreements: 5 };
const codeQuestion = taskQuestions("CLAIM_VERIFICATION", { likertDimensions: [], likertMin: 1, likertMax: 5, commentQuestions: [] })[0];
const gradeQuestion = taskQuestions("REFERENCE_GRADING", { likertDimensions: [], likertMin: 1, likertMax: 5, commentQuestions: [] })[0];

/** The columns gatherTaskColumns reads for these ratings: items in study order, entries by item (stable), values at their scale positions. */
function columnsOf(question: Question, ratings: readonly Rating[], items: ReadonlyMap<string, StudyItem>) {
  const ordered = [...items.values()].sort((a, b) => a.order - b.order);
  const number = new Map(ordered.map((it, u) => [it.id, u]));
  const raters = [...new Set(ratings.map((r) => r.rater))];
  const entries = [...ratings].sort((a, b) => number.get(a.item)! - number.get(b.item)!);
  const q = {
    question,
    item: Int32Array.from(entries, (r) => number.get(r.item)!),
    rater: Int32Array.from(entries, (r) => raters.indexOf(r.rater)),
    value: Float64Array.from(entries, (r) => question.scale.indexOf(r.value)),
    excluded: 0,
    drafts: 0,
  };
  return [{ items: ordered, raters }, q] as const;
}

const item = (id: string, order: number): StudyItem => ({ id, order, codeChangeId: "c", codeChangeExternalId: "c", language: "python", system: null, itemExternalId: id, label: `row ${id}` });

describe.skipIf(!hasPhase1)("agreement report on the CRScore phase-1 sheets (rows as claims)", () => {
  const ratings: Rating[] = [];
  const items = new Map<string, StudyItem>();
  for (const annotator of ["marcus", "atharva"] as const) {
    readClaimSheet(annotator).forEach((row, i) => {
      items.set(String(i), item(String(i), i));
      if (row.code !== null) ratings.push({ item: String(i), rater: annotator, value: claimCodeOfNumber(row.code) as string });
    });
  }
  const report = questionAgreement(...columnsOf(codeQuestion, ratings, items), new Map([["marcus", "Marcus"]]), settings);
  const cohen = (coefficients: typeof report.coefficients) => coefficients.find((c) => c.key === "cohen");

  test("all 115 common claims: kappa 0.7880; the reliability set (last 100 common claims, rows 395-494): the paper's 0.8043", () => {
    expect(report.counts.itemsWithTwoOrMoreRatings).toBe(115);
    expect(cohen(report.coefficients)?.value?.toFixed(4)).toBe("0.7880");
    expect(cohen(report.coefficients)?.n).toBe(115);
    const set = report.reliabilitySet;
    expect(set).toMatchObject({ items: 100, firstItem: "row 395", lastItem: "row 494" });
    expect(cohen(set?.coefficients ?? [])?.value?.toFixed(4)).toBe("0.8043");
    expect(cohen(set?.coefficients ?? [])?.method).toMatch(/^Cohen's kappa, unweighted/);
    expect(set?.coefficients.find((c) => c.key === "percent")?.value).toBeCloseTo(0.9, 12);
  });

  test("every coefficient has a method name, n and a seeded CI around it", () => {
    for (const c of report.coefficients) {
      expect(c.method.length).toBeGreaterThan(10);
      expect(c.value).not.toBeNull();
      expect(c.ci?.low).toBeLessThanOrEqual(c.value as number);
      expect(c.ci?.high).toBeGreaterThanOrEqual(c.value as number);
    }
    const again = questionAgreement(...columnsOf(codeQuestion, ratings, items), new Map(), settings);
    expect(again.coefficients.map((c) => c.ci)).toEqual(report.coefficients.map((c) => c.ci));
    expect(report.coefficients.find((c) => c.key === "alpha")?.method).toMatch(/nominal/);
    expect(report.coefficients.find((c) => c.key === "gwet")?.method).toMatch(/AC1/);
  });

  test("confusion matrix, pairwise matrix, windows and disagreements", () => {
    expect(report.confusion?.n).toBe(115);
    expect(report.confusion?.raters.map((r) => r.name)).toEqual(["Marcus", "atharva"]);
    const agreeing = report.confusion?.counts.reduce((s, row, i) => s + row[i], 0);
    expect(agreeing).toBe(103);
    expect(report.pairwise.matrix[0][1]?.value).toBe(cohen(report.coefficients)?.value);
    expect(report.windows.map((b) => b.items)).toEqual([50, 50, 15]);
    expect(report.disagreements).toHaveLength(5);
    expect(report.disagreements.every((d) => d.agreement === 0 && d.ratings.length === 2)).toBe(true);
  });
});

describe("item bootstrap", () => {
  const ratings: Rating[] = [];
  for (let i = 0; i < 40; i++) for (const [r, shift] of [["a", 0], ["b", i % 3 === 0 ? 1 : 0], ["c", i % 5 === 0 ? -1 : 0]] as const) ratings.push({ item: `i${i}`, rater: r, value: Math.min(5, Math.max(1, 1 + (i % 5) + shift)) });
  const table = buildAnswerTable(ratings, { scale: [1, 2, 3, 4, 5] });

  test("resampling items keeps each item's ratings together; the identity resample reproduces the table", () => {
    const same = resampleItems(table, Array.from(table.items, (_, u) => u));
    expect(krippendorffAlpha(same, { level: "ordinal" }).value).toBe(krippendorffAlpha(table, { level: "ordinal" }).value);
    const doubled = resampleItems(table, [0, 0, 1]);
    expect(doubled.items).toEqual(["i0", "i0", "i1"]);
    expect(Array.from(doubled.itemStart)).toEqual([0, 3, 6, 9]);
  });

  test("seeded: same seed, same interval; it brackets the estimate", () => {
    const stat = (t: typeof table) => cohenKappa(t, { raters: ["a", "b"], weights: "quadratic" }).value;
    const s = bootstrapSettings({ nResamples: 300, seed: 7 });
    const ci = itemBootstrapCi(table, stat, s);
    expect(itemBootstrapCi(table, stat, s)).toEqual(ci);
    expect(ci.nResamples).toBe(300);
    expect(ci.low).toBeLessThan(stat(table) as number);
    expect(ci.high).toBeGreaterThan(stat(table) as number);
  });

  test("more than two raters: mean pairwise Cohen (stated), ordinal alpha, AC2", () => {
    const reports = coefficientReports(table, gradeQuestion as Question, null);
    expect(reports.map((r) => r.key)).toEqual(["percent", "cohen", "fleiss", "alpha", "gwet", "alpha-interval"]);
    expect(reports[1].method).toMatch(/^Mean pairwise Cohen's kappa, quadratic weights/);
    expect(reports[1].n).toBe(3);
    const pairs = [["a", "b"], ["a", "c"], ["b", "c"]].map(([x, y]) => cohenKappa(table, { raters: [x, y], weights: "quadratic" }).value as number);
    expect(reports[1].value).toBeCloseTo((pairs[0] + pairs[1] + pairs[2]) / 3, 14);
    expect(reports[3].method).toMatch(/ordinal/);
    expect(reports[4].method).toMatch(/AC2, quadratic/);
    expect(reports.every((r) => r.ci === null)).toBe(true);
  });

  test("undefined coefficients carry a reason and no CI", () => {
    const one = buildAnswerTable([{ item: "x", rater: "a", value: 3 }], { scale: [1, 2, 3, 4, 5] });
    const reports = coefficientReports(one, gradeQuestion, settings.bootstrap);
    for (const r of reports) {
      expect(r.value).toBeNull();
      expect(r.reason).toBeTruthy();
      expect(r.ci).toBeNull();
    }
  });
});

describe("item bootstrap CIs from resampled coefficients (no resampled tables)", () => {
  /** Ragged Likert ratings around a latent quality per item (the data the pinned intervals below were computed on). */
  function likertRatings(seed: number, items: number, raters: number, keep: number): Rating[] {
    const random = seededRandom(seed);
    const ratings: Rating[] = [];
    for (let i = 0; i < items; i++) {
      const quality = 1 + Math.floor(random() * 5);
      for (let r = 0; r < raters; r++) {
        if (random() >= keep) continue;
        const noise = random() < 0.3 ? (random() < 0.5 ? -1 : 1) : 0;
        ratings.push({ item: `i${i}`, rater: `r${r}`, value: Math.min(5, Math.max(1, quality + noise)) });
      }
    }
    return ratings;
  }
  const likert = taskQuestions("REVIEW_RATING", { likertDimensions: ["relevance"], likertMin: 1, likertMax: 5, commentQuestions: [] })[0];
  const likertTable = buildAnswerTable(likertRatings(3, 60, 4, 0.8), { scale: likert.scale });
  const codeRatings = likertRatings(5, 50, 3, 0.9).map((r) => ({ ...r, value: codeQuestion.scale[(r.value as number) - 1] }));
  const codeTable = buildAnswerTable(codeRatings, { scale: codeQuestion.scale });
  const summary = (reports: ReturnType<typeof coefficientReports>) => reports.map((c) => [c.key, c.value, c.ci]);
  /** The point estimates to the bit; the CIs' endpoints up to summation order (see summation-order.ts). */
  const pinned = (rows: [string, number, { low: number; high: number; nResamples: number }][]) => rows.map(([key, value, ci]) => [key, value, nearlyInterval(ci)]);

  test("the seeded intervals are unchanged (values computed when every resample built its table)", () => {
    const likertReports = coefficientReports(likertTable, likert, bootstrapSettings({ nResamples: 300, seed: 1 }));
    // Interval alpha is computed on the same resamples and changes none of the others.
    expect(likertReports[5]).toMatchObject({ key: "alpha-interval", ci: { nResamples: 300 } });
    expect(summary(likertReports.slice(0, 5))).toEqual(pinned([
      ["percent", 0.5730994152046784, { low: 0.4611350574712644, high: 0.6652777777777776, nResamples: 300 }],
      ["cohen", 0.8662981574471141, { low: 0.7857365292888587, high: 0.9124280267235941, nResamples: 300 }],
      ["fleiss", 0.45768615856385897, { low: 0.30718029899015303, high: 0.5649127256167937, nResamples: 300 }],
      ["alpha", 0.8563454869214303, { low: 0.7656013716584935, high: 0.9031856618032175, nResamples: 300 }],
      ["gwet", 0.8625978822985789, { low: 0.8077561894118979, high: 0.9072568173498929, nResamples: 300 }],
    ]));
    expect(summary(coefficientReports(codeTable, codeQuestion, bootstrapSettings({ nResamples: 250, seed: 4 })))).toEqual(pinned([
      ["percent", 0.6734693877551019, { low: 0.5571180555555555, high: 0.7687074829931974, nResamples: 250 }],
      ["cohen", 0.6003255077712334, { low: 0.467892494475328, high: 0.7095978715110759, nResamples: 250 }],
      ["fleiss", 0.5762155697222503, { low: 0.4204424221546172, high: 0.688813787782745, nResamples: 250 }],
      ["alpha", 0.5899182561307902, { low: 0.44907290441272973, high: 0.6913380088954147, nResamples: 250 }],
      ["gwet", 0.5955637272903063, { low: 0.45128757996023056, high: 0.7166667115454033, nResamples: 250 }],
    ]));
  });

  test("every coefficient's CI equals the one from resampled tables (itemBootstrapCi), for several seeds", () => {
    for (const [table, question] of [
      [likertTable, likert],
      [codeTable, codeQuestion],
      [buildAnswerTable(likertRatings(8, 40, 2, 0.9), { scale: likert.scale }), likert],
    ] as const) {
      for (const seed of [1, 2, 3]) {
        const settings = bootstrapSettings({ nResamples: 150, seed });
        const reports = coefficientReports(table, question, settings);
        coefficientDefinitions(question, table.raters.length).forEach((def, k) => {
          expect(reports[k].ci).toEqual(nearlyInterval(itemBootstrapCi(table, (t) => def.compute(t).value, settings, table.value.length * def.passes)));
        });
      }
    }
  });

  test("coefficients with different resample counts share one stream: each CI equals its own itemBootstrapCi", () => {
    const settings = bootstrapSettings({ seed: 6 });
    const definitions = coefficientDefinitions(likert, likertTable.raters.length).slice(0, 5);
    const costs = [30_000, 100_000, 1e6, 60_000, 75_000];
    const cis = itemBootstrapCis(likertTable, definitions.map((def, k) => ({ resampled: def.resampled, cost: costs[k] })), settings);
    expect(cis.map((c) => c.nResamples)).toEqual([1000, 300, 200, 500, 400]);
    definitions.forEach((def, k) => expect(cis[k]).toEqual(nearlyInterval(itemBootstrapCi(likertTable, (t) => def.compute(t).value, settings, costs[k]))));
  });

  test("a task's questions share one stream of resamples: each table's reports are the ones it gets alone", () => {
    const settings = bootstrapSettings({ nResamples: 120, seed: 5 });
    // Two tables over 60 items (their picks are drawn once) and one over 40, whose CIs come from its own stream.
    const tables = [
      { table: likertTable, question: likert },
      { table: buildAnswerTable(likertRatings(9, 60, 3, 0.9), { scale: likert.scale }), question: likert },
      { table: codeTable, question: codeQuestion },
      { table: buildAnswerTable(likertRatings(11, 40, 2, 0.9), { scale: likert.scale }), question: likert },
    ];
    expect(tables.map((t) => t.table.items.length)).toEqual([60, 60, 50, 40]);
    const together = tablesCoefficientReports(tables, settings, ["nominal"]);
    tables.forEach(({ table, question }, g) => expect(together[g]).toEqual(coefficientReports(table, question, settings, ["nominal"])));
    expect(together.flat().every((c) => c.ci?.nResamples === 120)).toBe(true);
  });

  test("a resampled coefficient of all items in order is the coefficient of the table (up to summation order)", () => {
    const identity = Float64Array.from(likertTable.items, (_, u) => u);
    const resamples = new ItemResamples(likertTable);
    for (const def of coefficientDefinitions(likert, likertTable.raters.length)) expect(def.resampled(resamples.load(identity))).toEqual(nearly(def.compute(likertTable).value));
  });
});

test("reasons name raters by their display names, not their ids", () => {
  const ratings: Rating[] = [
    { item: "a", rater: "id-x", value: "CORRECT" },
    { item: "a", rater: "id-z", value: "CORRECT" },
    { item: "b", rater: "id-y", value: "INCORRECT" },
    { item: "b", rater: "id-z", value: "CORRECT" },
  ];
  const items = new Map([item("a", 0), item("b", 1)].map((i) => [i.id, i]));
  const names = new Map([["id-x", "Xena"], ["id-y", "yan@example.org"], ["id-z", "Zoe"]]);
  const report = questionAgreement(...columnsOf(codeQuestion, ratings, items), names, { ...settings, reliabilitySet: null });
  const x = report.raters.findIndex((r) => r.id === "id-x");
  const y = report.raters.findIndex((r) => r.id === "id-y");
  expect(report.pairwise.matrix[x][y]?.reason).toBe("raters Xena and yan@example.org rated no item in common");
});

test("windows and disagreements name the study's items when the columns list them out of study order, with unrated and once-rated items", () => {
  const random = seededRandom(12);
  // Study order is the reverse of the ids' order; a third of the ratings are missing.
  const items = new Map(Array.from({ length: 40 }, (_, i) => [`i${i}`, item(`i${i}`, 39 - i)]));
  const ratings: Rating[] = [];
  for (let i = 0; i < 40; i++) for (let r = 0; r < 3; r++) if (random() < 0.6) ratings.push({ item: `i${i}`, rater: `r${r}`, value: gradeQuestion.scale[Math.floor(random() * gradeQuestion.scale.length)] });
  const [data, q] = columnsOf(gradeQuestion, ratings, items);
  // Entries shuffled: the table numbers the items in the order they are first seen, not the study's.
  const order = Array.from(q.item, (_, e) => e).sort(() => random() - 0.5);
  const shuffled = { ...q, item: Int32Array.from(order, (e) => q.item[e]), rater: Int32Array.from(order, (e) => q.rater[e]), value: Float64Array.from(order, (e) => q.value[e]) };
  const report = questionAgreement(data, shuffled, new Map(), { ...settings, windowSize: 7, reliabilitySet: null, disagreements: 10 });

  const table = questionTable(data, shuffled);
  const label = (id: string) => items.get(id)?.label;
  const pairable = table.items.filter((_, u) => table.itemStart[u + 1] - table.itemStart[u] >= 2);
  expect(pairable).not.toEqual([...pairable].sort((a, b) => (items.get(a)?.order ?? 0) - (items.get(b)?.order ?? 0)));
  const windows = Array.from({ length: Math.ceil(pairable.length / 7) }, (_, b) => pairable.slice(7 * b, 7 * b + 7));
  expect(report.windows.map((b) => [b.items, b.firstItem, b.lastItem])).toEqual(windows.map((ids) => [ids.length, label(ids[0]), label(ids[ids.length - 1])]));
  const least = leastAgreement(table, 10, table.items.map((id) => items.get(id)?.order ?? 0));
  expect(report.disagreements.map((d) => d.item.id)).toEqual(least.map((p) => p.item));
});


describe("mean pairwise Cohen's kappa", () => {
  test("equals the mean of cohenKappa over the pairs with a defined kappa, in pair order, to the last bit (missing ratings, pairs with no common item or one category)", () => {
    const random = seededRandom(31);
    for (let trial = 0; trial < 40; trial++) {
      const raters = 2 + (trial % 4);
      const ratings: Rating[] = [];
      for (let i = 0; i < 30; i++) {
        for (let r = 0; r < raters; r++) {
          if (random() < 0.35) continue;
          // Rater r1 rates only items i < 5 in half the trials; rater r0 is constant in a quarter.
          if (r === 1 && trial % 2 === 0 && i >= 5) continue;
          ratings.push({ item: `i${i}`, rater: `r${r}`, value: r === 0 && trial % 4 === 0 ? 3 : 1 + Math.floor(random() * 5) });
        }
      }
      const table = buildAnswerTable(ratings, { scale: [1, 2, 3, 4, 5] });
      for (const weights of ["unweighted", "linear", "quadratic"] as const) {
        const kappas = table.raters.flatMap((a, i) => table.raters.slice(i + 1).map((b) => cohenKappa(table, { raters: [a, b], weights }).value)).filter((v): v is number => v !== null);
        const result = meanPairwiseCohen(table, weights);
        expect(result.n).toBe(kappas.length);
        if (kappas.length === 0) expect(result.value).toBeNull();
        else expect(Object.is(result.value, kappas.reduce((sum, k) => sum + k, 0) / kappas.length)).toBe(true);
      }
    }
  });
});
