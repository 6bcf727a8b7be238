/** The per-item and per-rater views of a question's columns (lib/analysis/gather.ts) that adjudication and quality read. */
import { describe, expect, test } from "vitest";
import { itemValues, answersByRater, type QuestionColumns, type TaskColumns } from "@/lib/analysis/gather";
import { taskQuestions, type StudyItem } from "@/lib/analysis";
import { seededRandom } from "@/lib/stats";

const question = taskQuestions("REFERENCE_GRADING", { likertDimensions: [], likertMin: 1, likertMax: 5, commentQuestions: [] })[0];
const item = (id: string, order: number): StudyItem => ({ id, order, codeChangeId: "c", codeChangeExternalId: "c", language: "python", system: "s", itemExternalId: id, label: id });

/** Random columns: items named out of study order (so id order is not item order), each rated by some raters (none for some items), values with ties. */
function randomColumns(seed: number): { data: TaskColumns; q: QuestionColumns } {
  const random = seededRandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const items = Array.from({ length: 12 }, (_, u) => item(`i${(u * 7) % 12}`, u));
  const raters = ["ada", "bob", "cy", "dee"];
  const entries: [number, number, number][] = [];
  items.forEach((_, u) => raters.forEach((_, r) => random() < 0.6 && entries.push([u, r, pick(2)])));
  const q = { question, item: Int32Array.from(entries, (e) => e[0]), rater: Int32Array.from(entries, (e) => e[1]), value: Float64Array.from(entries, (e) => e[2]), excluded: 0, drafts: 0 };
  return { data: { task: "REFERENCE_GRADING", items, raters, questions: [q] }, q };
}

/** The same columns with their entries in another order. */
function shuffled({ data, q }: ReturnType<typeof randomColumns>, seed: number) {
  const random = seededRandom(seed);
  const order = Array.from(q.item, (_, e) => e);
  for (let k = order.length - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [order[k], order[j]] = [order[j], order[k]];
  }
  const p = { ...q, item: Int32Array.from(order, (e) => q.item[e]), rater: Int32Array.from(order, (e) => q.rater[e]), value: Float64Array.from(order, (e) => q.value[e]) };
  return { data: { ...data, questions: [p] }, q: p };
}

describe.each([1, 2, 3, 4, 5])("seed %i", (seed) => {
  const columns = randomColumns(seed);
  const triples = Array.from(columns.q.item, (u, e) => ({ item: columns.data.items[u].id, rater: columns.data.raters[columns.q.rater[e]], value: question.scale[columns.q.value[e]] }));

  test("answersByRater: every rating once, by rater then item id, whatever the entries' order", () => {
    const byRater = answersByRater(columns.data, columns.q);
    const key = (r: { item: string; rater: string }) => `${r.rater}|${r.item}`;
    expect(byRater.map(key)).toEqual(triples.map(key).sort());
    expect([...byRater].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...triples].sort((a, b) => key(a).localeCompare(key(b))));
    const again = shuffled(columns, seed + 100);
    expect(answersByRater(again.data, again.q)).toEqual(byRater);
  });

  test("itemValues: each item's values (none for unrated items, ties kept), in the entries' order", () => {
    const values = itemValues(columns.data, columns.q);
    expect(values).toHaveLength(columns.data.items.length);
    columns.data.items.forEach((it, u) => expect(values[u]).toEqual(triples.filter((t) => t.item === it.id).map((t) => t.value)));
    expect(values.flat()).toHaveLength(triples.length);
  });
});
