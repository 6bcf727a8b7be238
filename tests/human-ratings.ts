/** HumanRatings (lib/analysis/human-scores.ts) to and from per-review lists of ratings, for tests. */
import { groupRatings, type HumanRatings } from "@/lib/analysis/human-scores";

type Rating = { rater: string; value: number };

/** The HumanRatings of per-review lists, raters numbered as first seen; a review with an empty list is not listed (it has no rating). */
export function ratingsFromLists(lists: ReadonlyMap<string, readonly Rating[]>): HumanRatings {
  const ids = [...lists.keys()];
  const raters: string[] = [];
  const number = new Map<string, number>();
  const item: number[] = [];
  const rater: number[] = [];
  const value: number[] = [];
  ids.forEach((id, u) => {
    for (const r of lists.get(id) ?? []) {
      if (!number.has(r.rater)) number.set(r.rater, raters.push(r.rater) - 1);
      item.push(u);
      rater.push(number.get(r.rater) as number);
      value.push(r.value);
    }
  });
  return groupRatings(ids, Int32Array.from(item), raters, Int32Array.from(rater), Float64Array.from(value));
}

/** Each listed review's ratings, in the columns' order. */
export function ratingLists(ratings: HumanRatings): Map<string, Rating[]> {
  return new Map(
    [...ratings.review].map(([id, k]) => {
      const list: Rating[] = [];
      for (let e = ratings.first[k]; e < ratings.first[k + 1]; e++) list.push({ rater: ratings.raters[ratings.rater[e]], value: ratings.value[e] });
      return [id, list];
    }),
  );
}
