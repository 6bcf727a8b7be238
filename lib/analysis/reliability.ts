/**
 * Annotator reliability (issue 12): for one question, each annotator's agreement with the
 * consensus (share of their answers equal to the item's consensus value) and with every other
 * annotator (share of equal answers on the items both rated), and for categorical questions
 * the Dawid-Skene (1979) competence, the estimated probability that they give the true class.
 */
import { dawidSkene, type Rating, type RatingValue } from "@/lib/agreement";
import type { Question } from "./questions";

export interface Share {
  agree: number;
  n: number;
  /** agree / n; null with no common items. */
  value: number | null;
}

export interface AnnotatorReliability {
  rater: string;
  items: number;
  withConsensus: Share;
  withOthers: { rater: string; share: Share }[];
  /** Dawid-Skene competence; null for ordinal questions. */
  competence: number | null;
}

const share = (agree: number, n: number): Share => ({ agree, n, value: n > 0 ? agree / n : null });

export function annotatorReliability(question: Question, ratings: readonly Rating[], consensus: ReadonlyMap<string, RatingValue>): AnnotatorReliability[] {
  const byRater = new Map<string, Map<string, RatingValue>>();
  for (const r of ratings) {
    if (!byRater.has(r.rater)) byRater.set(r.rater, new Map());
    byRater.get(r.rater)!.set(r.item, r.value);
  }
  const raters = [...byRater.keys()].sort();
  const ds = question.level === "nominal" && raters.length >= 2 ? dawidSkene(ratings, { scale: question.scale }) : null;
  return raters.map((rater) => {
    const own = byRater.get(rater)!;
    let agree = 0;
    let n = 0;
    for (const [item, value] of own) {
      const c = consensus.get(item);
      if (c === undefined) continue;
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
    return { rater, items: own.size, withConsensus: share(agree, n), withOthers, competence: ds ? ds.competence[ds.raters.indexOf(rater)] : null };
  });
}
