import { describe, expect, test } from "vitest";
import { humanScore, mean } from "@/lib/analysis/human-scores";
import { seededRandom } from "@/lib/stats";
import { ratingLists, ratingsFromLists } from "../../human-ratings";

describe("human scores from rating columns (properties)", () => {
  const random = seededRandom(61);
  // Reviews with 0 to 5 ratings by 6 annotators, values with ties and fractions (as "high-quality" 0/1 and Likert 1-5 give).
  const lists = () =>
    new Map(
      Array.from({ length: 300 }, (_, i) => [
        `r${i}`,
        Array.from({ length: Math.floor(random() * 6) }, () => ({ rater: `ann${Math.floor(random() * 6)}`, value: random() < 0.5 ? 1 + Math.floor(random() * 5) : Math.floor(random() * 9) / 8 })),
      ]),
    );

  test("a review's score is the mean of its ratings to the last bit; a review without ratings has none and is not listed", () => {
    const rated = lists();
    const ratings = ratingsFromLists(rated);
    for (const [id, list] of rated) {
      if (list.length === 0) expect(humanScore(ratings, id)).toBeUndefined();
      else expect(Object.is(humanScore(ratings, id), mean(list.map((r) => r.value)))).toBe(true);
    }
    expect(humanScore(ratings, "unknown")).toBeUndefined();
    expect(ratingLists(ratings)).toEqual(new Map([...rated].filter(([, list]) => list.length > 0)));
  });

  test("does not depend on the order of the reviews", () => {
    const rated = lists();
    const ratings = ratingsFromLists(rated);
    const reversed = ratingsFromLists(new Map([...rated].reverse()));
    for (const id of rated.keys()) expect(humanScore(reversed, id)).toBe(humanScore(ratings, id));
    expect(ratingsFromLists(new Map()).review.size).toBe(0);
  });
});
