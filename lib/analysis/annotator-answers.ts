/** One annotator's answers per code change, from a task's ratings as columns (lib/analysis/gather): what a lead's page of that annotator lists. */
import type { AnswerValue } from "@/lib/agreement";
import type { TaskColumns } from "./gather";

export interface ItemAnswers {
  /** The claim or review within its change, e.g. "claim 2" or the review's system. */
  item: string;
  answers: { question: string; value: AnswerValue }[];
}

/** The rater's answers grouped by code change id, items in study order, questions in the task's order. */
export function answersByChange(data: TaskColumns, rater: string): Map<string, ItemAnswers[]> {
  const r = data.raters.indexOf(rater);
  const byItem = new Map<number, ItemAnswers["answers"]>();
  for (const q of data.questions) {
    for (let e = 0; e < q.item.length; e++) {
      if (q.rater[e] !== r) continue;
      const u = q.item[e];
      if (!byItem.has(u)) byItem.set(u, []);
      byItem.get(u)!.push({ question: q.question.label, value: q.question.scale[q.value[e]] });
    }
  }
  const out = new Map<string, ItemAnswers[]>();
  for (const u of [...byItem.keys()].sort((a, b) => a - b)) {
    const item = data.items[u];
    const prefix = `${item.codeChangeExternalId} · `;
    const name = item.label.startsWith(prefix) ? item.label.slice(prefix.length) : item.label;
    if (!out.has(item.codeChangeId)) out.set(item.codeChangeId, []);
    out.get(item.codeChangeId)!.push({ item: name, answers: byItem.get(u)! });
  }
  return out;
}
