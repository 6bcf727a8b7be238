/** One annotator's answers per code change, from a task's ratings per question (lib/analysis/gather): what a lead's page of that annotator lists. */
import type { RatingValue } from "@/lib/agreement";
import type { QuestionRatings, StudyItem } from "./collect";

export interface ItemAnswers {
  /** The claim or review within its change, e.g. "claim 2" or the review's system. */
  item: string;
  answers: { question: string; value: RatingValue }[];
}

/** The rater's answers grouped by code change id, items in study order, questions in the task's order. */
export function answersByChange(items: ReadonlyMap<string, StudyItem>, questions: readonly QuestionRatings[], rater: string): Map<string, ItemAnswers[]> {
  const byItem = new Map<string, ItemAnswers["answers"]>();
  for (const q of questions) {
    for (const r of q.ratings) {
      if (r.rater !== rater || !items.has(r.item)) continue;
      if (!byItem.has(r.item)) byItem.set(r.item, []);
      byItem.get(r.item)!.push({ question: q.question.label, value: r.value });
    }
  }
  const out = new Map<string, ItemAnswers[]>();
  const rated = [...byItem.keys()].map((id) => items.get(id)!).sort((a, b) => a.order - b.order);
  for (const item of rated) {
    const prefix = `${item.changeExternalId} · `;
    const name = item.label.startsWith(prefix) ? item.label.slice(prefix.length) : item.label;
    if (!out.has(item.codeChangeId)) out.set(item.codeChangeId, []);
    out.get(item.codeChangeId)!.push({ item: name, answers: byItem.get(item.id)! });
  }
  return out;
}
