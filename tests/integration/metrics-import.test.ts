/** Importing precomputed scores (CSV or JSONL: review id, metric, value): per-line errors, all or nothing. */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { listStudyMetrics, metricValuesForStudy } from "@/lib/data/metric-scores";
import { createClient } from "@/lib/db/client";
import { importMetricScores } from "@/lib/import/metric-scores";

const db = createClient(inject("databaseUrl"));
let studyId: string;
let reviewIds: string[];
const file = (name: string, text: string) => ({ name, content: new TextEncoder().encode(text) });

beforeAll(async () => {
  const study = await db.study.create({ data: { slug: "score-import", name: "score import", tasks: ["REFERENCE_GRADING"] } });
  studyId = study.id;
  const change = await db.codeChange.create({
    data: {
      studyId,
      externalId: "ch-1",
      language: "java",
      diff: "",
      reviews: { create: [0, 1, 2].map((i) => ({ externalId: `rev-${i}`, system: `s${i}`, text: `review ${i}`, position: i })) },
    },
    include: { reviews: { orderBy: { position: "asc" } } },
  });
  reviewIds = change.reviews.map((r) => r.id);
});
afterAll(async () => {
  await db.study.delete({ where: { id: studyId } });
  await db.$disconnect();
});

describe("import-scores", () => {
  test("every bad line is reported and nothing is written", async () => {
    const csv = ["review_id,metric,value", `${reviewIds[0]},llm-judge,4`, `nope,llm-judge,3`, `${reviewIds[1]},,2`, `${reviewIds[2]},llm-judge,nan`, `${reviewIds[0]},llm-judge,5`].join("\n");
    const error = await importMetricScores(studyId, file("judge.csv", csv), {}).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/nothing imported: 4 error\(s\)/);
    expect(message).toContain('judge.csv: row 3 (line 3): review_id: no review with id "nope" in this study');
    expect(message).toContain("judge.csv: row 4 (line 4): metric: missing metric name");
    expect(message).toContain('judge.csv: row 5 (line 5): value: "nan" is not a finite number');
    expect(message).toContain("judge.csv: row 6 (line 6): review_id: a second score of llm-judge for this review");
    expect(await db.metricScore.count({ where: { reviewId: { in: reviewIds } } })).toBe(0);
  });

  test("a missing column is named with the header found", async () => {
    await expect(importMetricScores(studyId, file("x.csv", "review,metric,value\na,b,1"), {})).rejects.toThrow(/missing column "review_id"; the header has "review", "metric", "value"/);
    await expect(importMetricScores(studyId, file("x.txt", "1"), {})).rejects.toThrow(/expected a \.csv or \.jsonl file/);
  });

  test("CSV by review id and JSONL by external ids; signatures per file; kept unless replaced; exact values", async () => {
    const csv = ["review_id,metric,value", ...reviewIds.map((id, i) => `${id},llm-judge,${i + 0.11764705882352941}`)].join("\n");
    expect(await importMetricScores(studyId, file("judge.csv", csv), {})).toEqual({ scores: 3, written: 3, metrics: [{ metric: "llm-judge", signature: "import:judge.csv", count: 3 }] });
    const values = await metricValuesForStudy(studyId, "llm-judge", undefined, db);
    expect(values?.values.get(reviewIds[0])).toBe(0.11764705882352941);

    const jsonl = ['{"change_id": "ch-1", "review_id": "rev-0", "metric": "bertscore", "value": 0.5, "params": "bertscore|model:x"}', "", '{"change_id": "ch-1", "review_id": "rev-2", "metric": "bertscore", "value": 0.25, "params": "bertscore|model:x"}'].join("\n");
    expect(await importMetricScores(studyId, file("bert.jsonl", jsonl), {})).toMatchObject({ scores: 2, written: 2 });

    const again = ["review_id,metric,value", `${reviewIds[0]},llm-judge,1`].join("\n");
    expect(await importMetricScores(studyId, file("judge.csv", again), {})).toMatchObject({ written: 0 });
    expect(await importMetricScores(studyId, file("judge.csv", again), { replace: true })).toMatchObject({ written: 1 });
    expect((await metricValuesForStudy(studyId, "llm-judge", undefined, db))?.values.get(reviewIds[0])).toBe(1);
    expect((await listStudyMetrics(studyId, db)).map((v) => [v.metric, v.signature, v.count])).toEqual([
      ["bertscore", "bertscore|model:x", 2],
      ["llm-judge", "import:judge.csv", 3],
    ]);
  });

  test("JSONL errors name the line", async () => {
    const jsonl = ['{"review_id": "x", "metric": "m", "value": 1}', "not json", "[1]"].join("\n");
    const message = ((await importMetricScores(studyId, file("s.jsonl", jsonl), {}).catch((e: Error) => e)) as Error).message;
    expect(message).toMatch(/s\.jsonl: line 2: not valid JSON/);
    expect(message).toMatch(/s\.jsonl: line 3: expected an object/);
    expect(message).toMatch(/s\.jsonl: line 1: review_id: no review with id "x"/);
  });
});
