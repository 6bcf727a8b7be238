/**
 * Annotator reliability: for one question, each annotator's agreement with the
 * consensus (share of their answers equal to the item's consensus value) and with every other
 * annotator (share of equal answers on the items both rated), and for categorical questions
 * the Dawid-Skene (1979) competence, the estimated probability that they give the true class.
 *
 * The consensus an annotator is compared with must not rest on their own answer: the lead's
 * adjudicated value, else the value two or more of the other annotators gave unanimously. A
 * unanimous consensus that needs the annotator's own answer (with two annotators, every
 * unanimous item) would count as agreement by construction; such items are left out and counted.
 */
import { dawidSkene, type Rating, type AnswerValue } from "@/lib/agreement";
import { unanimousValue } from "@/lib/tasks/consensus";
import type { Question } from "./questions";

export interface Share {
  agree: number;
  n: number;
  /** agree / n; null with no common items. */
  value: number | null;
}

export interface ConsensusShare extends Share {
  /** Their items left out: unanimous only with their own answer, and neither adjudicated nor agreed by two others. */
  leftOut: number;
}

export interface AnnotatorReliability {
  rater: string;
  items: number;
  /** Against the consensus without their own answer (see above). */
  withConsensus: ConsensusShare;
  withOthers: { rater: string; share: Share }[];
  /** Dawid-Skene competence; null for ordinal questions. */
  competence: number | null;
}

const share = (agree: number, n: number): Share => ({ agree, n, value: n > 0 ? agree / n : null });

/** The consensus of `item` without `rater`'s answer: adjudicated, else unanimous among two or more others. */
function othersConsensus(item: string, rater: string, byItem: ReadonlyMap<string, ReadonlyMap<string, AnswerValue>>, adjudicated: ReadonlyMap<string, AnswerValue>): AnswerValue | null {
  const decided = adjudicated.get(item);
  if (decided !== undefined) return decided;
  const others = [...byItem.get(item)!].flatMap(([r, v]) => (r === rater ? [] : [v]));
  return unanimousValue(others);
}

/** `adjudicated`: the lead's consensus values by item. */
export function annotatorReliability(question: Question, ratings: readonly Rating[], adjudicated: ReadonlyMap<string, AnswerValue>): AnnotatorReliability[] {
  const byRater = new Map<string, Map<string, AnswerValue>>();
  const byItem = new Map<string, Map<string, AnswerValue>>();
  for (const r of ratings) {
    if (!byRater.has(r.rater)) byRater.set(r.rater, new Map());
    byRater.get(r.rater)!.set(r.item, r.value);
    if (!byItem.has(r.item)) byItem.set(r.item, new Map());
    byItem.get(r.item)!.set(r.rater, r.value);
  }
  const raters = [...byRater.keys()].sort();
  const ds = question.level === "nominal" && raters.length >= 2 ? dawidSkene(ratings, { scale: question.scale }) : null;
  return raters.map((rater) => {
    const own = byRater.get(rater)!;
    let agree = 0;
    let n = 0;
    let leftOut = 0;
    for (const [item, value] of own) {
      const c = othersConsensus(item, rater, byItem, adjudicated);
      if (c === null) {
        if (unanimousValue([...byItem.get(item)!.values()]) !== null) leftOut++;
        continue;
      }
      n++;
      if (c === value) agree++;
    }
    const withOthers = raters
      .filter((other) => other !== rater)
      .map((other) => {
        const theirs = byRater.get(other)!;
        let same = 0;
        let common = 0;
        for (const [item, value] of own) {
          if (!theirs.has(item)) continue;
          common++;
          if (theirs.get(item) === value) same++;
        }
        return { rater: other, share: share(same, common) };
      });
    return { rater, items: own.size, withConsensus: { ...share(agree, n), leftOut }, withOthers, competence: ds ? ds.competence[ds.raters.indexOf(rater)] : null };
  });
}
