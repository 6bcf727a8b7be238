import { describe, expect, test } from "vitest";
import { bootstrapSettings, humanMetricAgreement, levelCorrelations, levelFreeSections, referenceTau, cellCounts, correlationSet, groupByLevel, pairCells, resampleKendall, resampleSpearman, type HumanScores, humanLevel, ksMatrix, metricInfo, quantileMap, type ReviewPoint, summarizeLevel, sweepMatches, systemRanking, TABLE_18_TAUS, taskQuestions, thresholdSweep } from "@/lib/analysis";
import { ratingsFromLists } from "../../human-ratings";
import { cohenKappa } from "@/lib/agreement";
import { crscoreFromBestMatches } from "@/lib/metrics";
import { bootstrapCi, kendallTauB, ks2samp, pearson, seededRandom, spearman } from "@/lib/stats";
import { nearly, nearlyInterval } from "../agreement/summation-order";

const scale = [1, 2, 3, 4, 5];
const bootstrap = bootstrapSettings({ nResamples: 200 });

describe("quantile mapping of a metric onto the human scale", () => {
  test("follows the human marginal distribution; ties share a level; lower-is-better flips", () => {
    const human = [1, 1, 1, 1, 2, 2, 3, 3, 4, 5];
    const metric = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
    expect(quantileMap(metric, human, scale)).toEqual([1, 1, 1, 1, 2, 2, 3, 3, 4, 5]);
    expect(quantileMap(metric.map((v) => -v), human, scale, false)).toEqual([1, 1, 1, 1, 2, 2, 3, 3, 4, 5]);
    const tied = quantileMap([0, 0, 0, 0, 1, 1, 1, 1, 1, 2], human, scale);
    expect(new Set(tied.slice(0, 4)).size).toBe(1);
    expect(new Set(tied.slice(4, 9)).size).toBe(1);
  });
});

describe("score levels (CRScore Figure 8, GradedReviews Table 6)", () => {
  test("a mean human score rounds half up to the scale", () => {
    expect([1, 1.49, 1.5, 2.5, 4.75, 7].map((s) => humanLevel(s, scale))).toEqual([1, 1, 2, 3, 5, 5]);
  });

  test("groups, box-plot summaries and the KS matrix", async () => {
    const points = [
      { metric: 1, human: 1 },
      { metric: 2, human: 1 },
      { metric: 3, human: 1.5 },
      { metric: 5, human: 2 },
      { metric: 8, human: 3 },
      { metric: 9, human: 3 },
    ];
    const groups = groupByLevel(points, scale);
    expect([...groups.keys()]).toEqual(scale);
    expect(groups.get(2)).toEqual([3, 5]);
    expect(summarizeLevel(1, groups.get(1) as number[])).toEqual({ level: 1, n: 2, mean: 1.5, min: 1, q1: 1.25, median: 1.5, q3: 1.75, max: 2 });
    expect(summarizeLevel(4, []).mean).toBeNull();
    const ks = await ksMatrix(groups);
    expect(ks.matrix[0][0]).toBeNull();
    expect(ks.matrix[0][2]?.statistic).toBe(ks2samp([1, 2], [8, 9]).statistic);
    expect(ks.matrix[2][0]).toEqual(ks.matrix[0][2]);
    expect(ks.matrix[0][3]?.reason).toMatch(/no reviews/);
  });
});

describe("correlation sections", async () => {
  const systems = ["s1", "s2", "s3", "s4"];
  const points: ReviewPoint[] = [];
  const ratings = new Map<string, { rater: string; value: number }[]>();
  const details = new Map<string, unknown>();
  for (let i = 0; i < 80; i++) {
    const system = systems[i % 4];
    const quality = 1 + ((i * 7) % 5);
    const id = `r${i}`;
    const a = quality;
    const b = Math.min(5, quality + (i % 6 === 0 ? 1 : 0));
    ratings.set(id, [{ rater: "ann1", value: a }, { rater: "ann2", value: b }]);
    const best = { reviewSentenceBest: [0.5 + quality / 20, 0.4], pseudoReferenceBest: [0.5 + quality / 20, 0.3 + (i % 3) / 10] };
    points.push({ reviewId: id, system, language: i % 2 ? "python" : "java", metric: crscoreFromBestMatches(best, 0.6).relevance as number, human: (a + b) / 2 });
    details.set(id, { tau: 0.6, reason: null, ...best });
  }
  const human: HumanScores = { question: taskQuestions("REVIEW_RATING", { likertDimensions: ["relevance"], likertMin: 1, likertMax: 5, commentQuestions: [] })[0], scale, ratings: ratingsFromLists(ratings), items: [], draftsLeftOut: 0 };
  const matches = sweepMatches(details);
  const sections = { correlations: levelCorrelations(points, "review", bootstrap), ...(await levelFreeSections(points, human, metricInfo("crscore-rel", "emb:tfidf-offline-v2|x|tau:0.6000"), matches)) };

  test("segment correlations overall and per language, with p-values and CIs", () => {
    expect(sections.correlations.overall.n).toBe(80);
    expect(sections.correlations.overall.spearman.statistic).toBe(spearman(points.map((p) => p.metric), points.map((p) => p.human)).statistic);
    expect(sections.correlations.byLanguage.map((l) => [l.language, l.n])).toEqual([["java", 40], ["python", 40]]);
    for (const s of [sections.correlations.overall.spearman, sections.correlations.overall.kendall, sections.correlations.overall.pearson]) {
      expect(s.pValue).not.toBeNull();
      expect(s.ci?.low).toBeLessThanOrEqual(s.statistic as number);
    }
  });

  test("system ranking side by side, ranks from 1 = best", () => {
    const ranking = systemRanking(points);
    expect(ranking.rows.map((r) => r.system)).toEqual(systems);
    // Two systems tie on the mean human score here: they share rank 3.5.
    expect(ranking.rows.map((r) => r.humanRank).sort()).toEqual([1, 2, 3.5, 3.5]);
    expect(ranking.spearman.n).toBe(4);
  });

  test("threshold sweep recomputes Rel from the stored best matches; the stored tau reproduces the scores", () => {
    const sweep = sections.thresholdSweep;
    const stored = sweep?.find((r) => r.stored);
    // Table 18's grid, the stored τ and τ_best: the threshold with the highest Kendall τ-b of every row.
    expect(sweep?.filter((r) => r.kind === "grid").map((r) => r.tau)).toEqual(TABLE_18_TAUS.filter((t) => t !== stored?.tau));
    const best = sweep?.find((r) => r.kind === "best");
    expect(best?.kendall.statistic).toBe(Math.max(...(sweep ?? []).map((r) => r.kendall.statistic ?? -Infinity)));
    expect(sweep?.map((r) => r.tau)).toEqual([...(sweep ?? [])].map((r) => r.tau).sort((a, b) => a - b));
    expect(stored?.spearman.statistic).toBe(sections.correlations.overall.spearman.statistic);
  });

  test("the sweep needs every review's stored detail: one that does not parse is left out of sweepMatches, and there is no sweep", () => {
    const broken = new Map([...details, ["r0", { tau: 0.6, reviewSentenceBest: "none" }]]);
    expect(sweepMatches(broken).has("r0")).toBe(false);
    expect(sweepMatches(broken).size).toBe(details.size - 1);
    expect(thresholdSweep("crscore-rel", points, sweepMatches(broken))).toBeNull();
    expect(thresholdSweep("crscore-rel", [], matches)).toBeNull();
    expect(thresholdSweep("crscore-rel", points, matches)).toEqual(sections.thresholdSweep);
  });

  test("τ_GT from the references' stored best matches: pooled over sentences, unannotated changes first, as a sweep row", async () => {
    const ref = (best: (number | null)[], annotated: boolean) => ({ detail: { tau: 0.5, reviewSentenceBest: best, pseudoReferenceBest: [0.1] }, annotated });
    // Unannotated: (0.2 + 0.4 + 0.9) / 3; the annotated reference's 0.1 and the undefined sentence are left out.
    expect(referenceTau([ref([0.2, 0.4], false), ref([0.9, null], false), ref([0.1], true)])).toBe(0.5);
    expect(referenceTau([ref([0.1, 0.2], true)])).toBe(0.15);
    expect(referenceTau([{ detail: null, annotated: false }])).toBeNull();
    const withGt = (await levelFreeSections(points, human, metricInfo("crscore-rel", "k"), matches, new Map(), 0.42)).thresholdSweep;
    expect(withGt?.filter((r) => r.kind === "gt").map((r) => r.tau)).toEqual([0.42]);
    expect(withGt?.map((r) => r.tau)).toEqual([...(withGt ?? [])].map((r) => r.tau).sort((a, b) => a - b));
  });

  test("human-human vs human-metric agreement (metric as one more rater)", () => {
    const a = sections.humanMetricAgreement;
    expect(a?.humanHuman.pairs).toHaveLength(1);
    expect(a?.humanMetric.pairs.map((p) => p.annotator)).toEqual(["ann1", "ann2"]);
    expect(a?.humanMetric.pairs.every((p) => p.n === 80)).toBe(true);
    expect(a?.humanHuman.mean).toBeGreaterThan(0.8);
  });

  test("each kappa is cohenKappa of the two raters' ratings (the metric's quantile-mapped), whatever the order of the reviews, with missing ratings", () => {
    const random = seededRandom(5);
    // Three annotators who each skip some reviews, ties in the metric, and one review nobody rated.
    const sparseLists = new Map([...ratings].map(([id, list], i) => [id, i === 7 ? [] : [...list, { rater: "ann3", value: 1 + (i % 5) }].filter(() => random() > 0.2)]));
    const sparse: HumanScores = { ...human, ratings: ratingsFromLists(sparseLists) };
    const tiedPoints = points.map((p, i) => ({ ...p, metric: Math.round(p.metric * 4) / 4 + (i === 3 ? 1 : 0) }));
    const agreement = humanMetricAgreement(tiedPoints, sparse, true, new Map());
    const rated = tiedPoints.flatMap((p) => (sparseLists.get(p.reviewId) ?? []).map((r) => ({ item: p.reviewId, rater: r.rater, value: r.value })));
    const mapped = quantileMap(tiedPoints.map((p) => p.metric), rated.map((r) => r.value), scale);
    const all = [...rated, ...tiedPoints.map((p, i) => ({ item: p.reviewId, rater: "metric", value: mapped[i] }))];
    const kappa = (a: string, b: string) => cohenKappa(all, { raters: [a, b], scale, weights: human.question.weights }).value;
    for (const pair of agreement?.humanHuman.pairs ?? []) expect(Object.is(pair.value, kappa(pair.a, pair.b))).toBe(true);
    for (const pair of agreement?.humanMetric.pairs ?? []) expect(Object.is(pair.value, kappa(pair.annotator, "metric"))).toBe(true);
    expect(agreement?.humanMetric.pairs).toHaveLength(3);
    const shuffled = [...tiedPoints].sort(() => random() - 0.5);
    expect(humanMetricAgreement(shuffled, sparse, true, new Map())).toEqual(agreement);
    expect(humanMetricAgreement(tiedPoints, { ...human, ratings: ratingsFromLists(new Map()) }, true, new Map())).toBeNull();
  });

  test("pairs are named: annotators by display name, and an undefined kappa's reason names them, not their ids", async () => {
    const names = new Map([["ann1", "Ada Lovelace"], ["ann2", "grace@example.org"]]);
    const named = (await levelFreeSections(points, human, metricInfo("crscore-rel", "k"), matches, names)).humanMetricAgreement;
    expect(named?.names).toEqual({ ann1: "Ada Lovelace", ann2: "grace@example.org" });
    // ann3 rated reviews ann1 never rated: their kappa is undefined, and the reason says who.
    const apart: HumanScores = { ...human, ratings: ratingsFromLists(new Map([...ratings].map(([id, list], i) => [id, i % 2 ? list.filter((r) => r.rater === "ann1") : list.filter((r) => r.rater === "ann2").map((r) => ({ ...r, rater: "ann3" }))]))) };
    const pairs = (await levelFreeSections(points, apart, metricInfo("crscore-rel", "k"), matches, new Map([...names, ["ann3", "Cy"]]))).humanMetricAgreement?.humanHuman.pairs;
    expect(pairs?.find((p) => p.value === null)?.reason).toBe("raters Cy and Ada Lovelace rated no item in common");
  });

  test("the offline embedder is labelled", () => {
    expect(metricInfo("crscore-rel", "emb:tfidf-offline-v2|x").label).toMatch(/offline TF-IDF/);
    // Scores of the first version stay stored, labelled as well.
    expect(metricInfo("crscore-rel", "emb:tfidf-offline-v1|x").label).toMatch(/offline TF-IDF/);
    expect(metricInfo("bleu-gradedreviews", "sig")).toMatchObject({ label: "BLEU (GradedReviews)", embedder: null, offlineEmbedder: false });
    expect(metricInfo("edit-distance", "sig").higherIsBetter).toBe(false);
  });

  test("system level: correlations over system means", () => {
    const system = { correlations: levelCorrelations(points, "system", bootstrap) };
    expect(system.correlations.overall.n).toBe(4);
    expect(system.correlations.units).toMatch(/systems/);
  });
});

describe("correlation CIs: one stream of resamples for the three statistics", () => {
  const data = (seed: number, n: number) => {
    const random = seededRandom(seed);
    const x = Array.from({ length: n }, () => random());
    return { x, y: x.map((v) => Math.round(5 * v + 2 * random())) };
  };

  test("the seeded intervals are unchanged (values computed when each statistic drew its own resamples)", () => {
    const { x, y } = data(9, 80);
    // r of a resample is now summed per cell instead of per pick (rank-bootstrap.ts), so its CI may move in the last bits.
    expect(correlationSet(x, y, bootstrapSettings({ seed: 2 }))).toEqual({
      n: 80,
      spearman: { statistic: 0.8973398687741378, pValue: 1.9614224353839205e-29, ci: { low: 0.8419009643071808, high: 0.9250505242155314, nResamples: 1000 } },
      kendall: { statistic: 0.7596018406349871, pValue: 2.7232151689136674e-20, ci: { low: 0.7026886931791957, high: 0.8071368245885531, nResamples: 1000 } },
      pearson: { statistic: 0.9076157717910275, pValue: 3.9165681251356102e-31, ci: nearlyInterval({ low: 0.8780589638156373, high: 0.9319247263097111, nResamples: 1000 }) },
    });
  });

  test("each CI equals its own seeded bootstrapCi, also when the statistics take different numbers of resamples", () => {
    const { x, y } = data(4, 2000);
    const fx = Float64Array.from(x);
    const fy = Float64Array.from(y);
    const cells = pairCells(fx, fy);
    const indices = Float64Array.from(x, (_, i) => i);
    const own = {
      spearman: (s: Float64Array) => resampleSpearman(cells, cellCounts(s, cells)),
      kendall: (s: Float64Array) => resampleKendall(cells, cellCounts(s, cells)),
      // lib/stats on the materialised resample: the same terms summed pick by pick, so equal to rounding (see above).
      pearson: (s: Float64Array) => pearson(Array.from(s, (i) => x[i]), Array.from(s, (i) => y[i])).statistic,
    };
    for (const seed of [1, 5]) {
      const set = correlationSet(x, y, bootstrapSettings({ seed }));
      expect([set.spearman.ci?.nResamples, set.kendall.ci?.nResamples, set.pearson.ci?.nResamples]).toEqual([1000, 683, 1000]);
      for (const key of ["spearman", "kendall", "pearson"] as const) {
        const ci = set[key].ci;
        const alone = bootstrapCi([indices], own[key], { nResamples: ci?.nResamples, seed, method: "percentile" });
        expect([ci?.low, ci?.high]).toEqual(key === "pearson" ? [nearly(alone.low), nearly(alone.high)] : [alone.low, alone.high]);
      }
    }
    const none = correlationSet(x, y, bootstrapSettings({ nResamples: 0 }));
    expect([none.spearman.ci, none.kendall.ci, none.pearson.ci]).toEqual([null, null, null]);
    expect(none.kendall.statistic).toBe(kendallTauB(x, y).statistic);
  });
});
