/** The location matcher and matchings' precision and recall (lib/analysis/comment-matching.ts), on comments placed by hand. */
import { describe, expect, test } from "vitest";
import { lineGap, locationMatches, matcherScores, sameLocation, systemMatchRates, usefulUnmatched, type JudgedMatch, type LocatedComment } from "@/lib/analysis/comment-matching";

const NO_CI = { bootstrap: { nResamples: 0, adaptive: false, seed: 1, confidenceLevel: 0.95 } };

function at(id: string, system: string, place: Partial<LocatedComment>): LocatedComment {
  return { id, system, pullRequest: "p1", path: "src/a.py", side: "RIGHT", startSide: null, startLine: null, line: null, ...place };
}

/**
 * Pull request p1: human comments on src/a.py's new lines 10-12 (h1) and 40 (h2), its old line
 * 11 (h3), README.md as a whole (h4); p2: src/a.py line 10 (h5). X comments 2 lines below h1
 * (x1), 1 line above it (x2), on h3's old line (x3), on README.md as a whole (x4), on another
 * file (x5); Y on p2's line 10 (y1) and on a range from old line 8 to new line 13 (y2).
 */
const COMMENTS: LocatedComment[] = [
  at("h1", "human", { startLine: 10, line: 12 }),
  at("h2", "human", { line: 40 }),
  at("h3", "human", { side: "LEFT", line: 11 }),
  at("h4", "human", { path: "README.md", side: null }),
  at("h5", "human", { pullRequest: "p2", line: 10 }),
  at("x1", "X", { line: 14 }),
  at("x2", "X", { startLine: 5, line: 9 }),
  at("x3", "X", { side: "LEFT", line: 11 }),
  at("x4", "X", { path: "README.md", side: null }),
  at("x5", "X", { path: "src/b.py", line: 40 }),
  at("y1", "Y", { pullRequest: "p2", line: 10 }),
  at("y2", "Y", { startSide: "LEFT", startLine: 8, line: 13 }),
];
const pairs = (k: number) => locationMatches(COMMENTS, k).map((m) => `${m.commentId}-${m.humanCommentId}`);

describe("the location matcher", () => {
  test("the gap between line ranges", () => {
    expect(lineGap([1, 3], [3, 5])).toBe(0);
    expect(lineGap([1, 3], [2, 2])).toBe(0);
    expect(lineGap([1, 3], [5, 6])).toBe(2);
    expect(lineGap([5, 6], [1, 3])).toBe(2);
  });

  test("same pull request, file and side, ranges at most k lines apart; whole-file comments meet whole-file comments", () => {
    expect(pairs(0)).toEqual(["x3-h3", "x4-h4", "y1-h5"]);
    expect(pairs(1)).toEqual(["x2-h1", "x3-h3", "x4-h4", "y1-h5", "y2-h1"]);
    expect(pairs(2)).toEqual(["x1-h1", "x2-h1", "x3-h3", "x4-h4", "y1-h5", "y2-h1"]);
    expect(pairs(26)).toEqual(["x1-h1", "x1-h2", "x2-h1", "x3-h3", "x4-h4", "y1-h5", "y2-h1"]);
    expect(sameLocation(COMMENTS[0], COMMENTS[3], 1000)).toBe(false);
  });

  test("k is a whole number of lines", () => {
    expect(() => locationMatches(COMMENTS, -1)).toThrow(RangeError);
    expect(() => locationMatches(COMMENTS, 1.5)).toThrow("k must be a whole number of lines, 0 or more; got 1.5");
  });
});

/** The annotators' matching: x1 and x3 fully raise h1's and h3's concerns, x2 partly h1's, x5 fully h2's (another file); y1 partly h5's. */
const HUMAN: JudgedMatch[] = [
  { commentId: "x1", humanCommentId: "h1", degree: "fully" },
  { commentId: "x2", humanCommentId: "h1", degree: "partly" },
  { commentId: "x3", humanCommentId: "h3", degree: "fully" },
  { commentId: "x5", humanCommentId: "h2", degree: "fully" },
  { commentId: "y1", humanCommentId: "h5", degree: "partly" },
];

describe("a matcher against the human matching", () => {
  test("precision and recall over pairs, per system; partly matching pairs count unless told", () => {
    const found = locationMatches(COMMENTS, 2);
    expect(matcherScores(COMMENTS, found, HUMAN)).toEqual([
      { system: "X", found: 4, judged: 4, agreed: 3, precision: 3 / 4, recall: 3 / 4 },
      { system: "Y", found: 2, judged: 1, agreed: 1, precision: 1 / 2, recall: 1 },
    ]);
    expect(matcherScores(COMMENTS, found, HUMAN, { partly: false })).toEqual([
      { system: "X", found: 4, judged: 3, agreed: 2, precision: 2 / 4, recall: 2 / 3 },
      { system: "Y", found: 2, judged: 0, agreed: 0, precision: 0, recall: null, reason: "the human matching has no pair" },
    ]);
    expect(matcherScores(COMMENTS, [], [])[0]).toMatchObject({ precision: null, recall: null, reason: "the matcher found no pair; the human matching has no pair" });
  });

  test("a pair must join a system's comment to a human reviewer's", () => {
    expect(() => matcherScores(COMMENTS, [{ commentId: "h1", humanCommentId: "h2" }], [])).toThrow(`the match of comment "h1" does not start at a system's comment`);
    expect(() => matcherScores(COMMENTS, [{ commentId: "x1", humanCommentId: "y1" }], [])).toThrow(`comment "y1" is not a human reviewer's comment`);
  });
});

describe("each system's recall and precision under a matching", () => {
  test("recall over the human comments of every pull request, precision over the system's comments", () => {
    const rows = systemMatchRates(COMMENTS, HUMAN, NO_CI);
    expect(rows.map((r) => [r.system, r.pullRequests, r.humanComments, r.matchedHumanComments, r.comments, r.matchingComments, r.recall.value, r.precision.value])).toEqual([
      ["X", 1, 5, 3, 5, 4, 3 / 5, 4 / 5],
      ["Y", 2, 5, 1, 2, 1, 1 / 5, 1 / 2],
    ]);
  });

  test("CIs over pull requests; one pull request has none, and says why", () => {
    const [x] = systemMatchRates(COMMENTS, HUMAN);
    expect(x.recall.ci![0]).toBeLessThanOrEqual(3 / 5);
    expect(x.recall.ci![1]).toBeGreaterThanOrEqual(3 / 5);
    expect(x.precision).toEqual({ value: 4 / 5, ci: null, reason: "no bootstrap CI: every sample needs at least 2 observations" });
    expect(systemMatchRates(COMMENTS.filter((c) => c.system !== "human"), [], NO_CI)[0].recall).toEqual({ value: null, ci: null, reason: "no human comments" });
  });
});

describe("useful but unmatched", () => {
  test("per system, of its comments with a usefulness consensus, the useful ones no human comment matches", () => {
    // Useful: x1, x2, x5 and y2; not useful: x3; x4 and y1 undecided.
    const useful: Record<string, boolean> = { x1: true, x2: true, x5: true, y2: true, x3: false };
    const usefulOf = (id: string) => useful[id] ?? null;
    // k = 0: only x3, x4 and y1 match: X's useful x1, x2, x5 are all unmatched, Y's y2 too.
    expect(usefulUnmatched(COMMENTS, locationMatches(COMMENTS, 0), usefulOf)).toEqual([
      { system: "X", decided: 4, useful: 3, usefulUnmatched: 3 },
      { system: "Y", decided: 1, useful: 1, usefulUnmatched: 1 },
    ]);
    // k = 2: x1, x2 and y2 meet h1; x5 (another file) stays unmatched.
    expect(usefulUnmatched(COMMENTS, locationMatches(COMMENTS, 2), usefulOf)).toEqual([
      { system: "X", decided: 4, useful: 3, usefulUnmatched: 1 },
      { system: "Y", decided: 1, useful: 1, usefulUnmatched: 0 },
    ]);
  });
});
