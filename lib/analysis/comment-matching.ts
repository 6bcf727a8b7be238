/**
 * Matching review systems' comments to the human reviewers' on the same pull requests, as
 * review-agent benchmarks score recall and precision against human "golden" comments (c-CRAB
 * §5.2 on why they differ). A matching is a set of pairs (system comment, human comment); the
 * human matching holds the pairs annotators judged to raise the same concern, fully or partly.
 * - `locationMatches`: the location matcher: same pull request, file and side, and line ranges
 *   at most k lines apart;
 * - `matcherScores`: an automatic matching's precision and recall against the human matching,
 *   per system, over pairs;
 * - `systemMatchRates`: per system, the share of human comments some comment of the system
 *   matches (recall) and the share of its comments that match a human comment (precision),
 *   with bootstrap CIs over pull requests.
 */
import type { DiffSide } from "@/lib/generated/prisma/enums";
import { HUMAN_SYSTEM, inTableOrder } from "./comment-systems";
import { clusteredRates, type Rate, type RateOptions } from "./pass-rates";

/** A review comment where it is anchored (docs/pull-request-formats.md). */
export interface LocatedComment {
  id: string;
  pullRequest: string;
  system: string;
  path: string;
  side: DiffSide | null;
  startSide: DiffSide | null;
  startLine: number | null;
  /** null: a comment on the whole file. */
  line: number | null;
}

/** A system comment matched to a human comment. */
export interface CommentMatch {
  commentId: string;
  humanCommentId: string;
}

/** A pair of the human matching, with how much of the human comment's concern it raises. */
export interface JudgedMatch extends CommentMatch {
  degree: "fully" | "partly";
}

/**
 * The lines a comment covers on its side: startLine..line when the range starts on the same
 * side (GitHub's start_side), else only `line` (a range from the old file into the new one has
 * no extent on one side's numbering); null for a whole-file comment.
 */
function rangeOf(c: LocatedComment): [number, number] | null {
  if (c.line === null) return null;
  if (c.startLine === null || (c.startSide !== null && c.startSide !== c.side)) return [c.line, c.line];
  return [Math.min(c.startLine, c.line), Math.max(c.startLine, c.line)];
}

/** Lines between two ranges: 0 when they overlap or touch end to end at one line. */
export function lineGap([s1, e1]: [number, number], [s2, e2]: [number, number]): number {
  return Math.max(0, Math.max(s1, s2) - Math.min(e1, e2));
}

/**
 * Whether a system comment and a human comment are at the same place: same pull request, file
 * and side, and line ranges at most `k` lines apart (k = 0: overlapping ranges). Whole-file
 * comments match only whole-file comments on the same file.
 */
export function sameLocation(a: LocatedComment, b: LocatedComment, k: number): boolean {
  if (a.pullRequest !== b.pullRequest || a.path !== b.path) return false;
  const ra = rangeOf(a);
  const rb = rangeOf(b);
  if (ra === null || rb === null) return ra === null && rb === null;
  return a.side === b.side && lineGap(ra, rb) <= k;
}

/** The location matcher: every pair of a system comment and a human comment at the same place, in the comments' order. */
export function locationMatches(comments: readonly LocatedComment[], k: number): CommentMatch[] {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`k must be a whole number of lines, 0 or more; got ${k}`);
  const humans = comments.filter((c) => c.system === HUMAN_SYSTEM);
  return comments.filter((c) => c.system !== HUMAN_SYSTEM).flatMap((c) => humans.filter((h) => sameLocation(c, h, k)).map((h) => ({ commentId: c.id, humanCommentId: h.id })));
}

/** The system of a match's comment, after checking it pairs a system's comment with a human reviewer's. */
function systemOfMatch(comments: readonly LocatedComment[]): (m: CommentMatch) => string {
  const systemOf = new Map(comments.map((c) => [c.id, c.system]));
  return (m) => {
    const system = systemOf.get(m.commentId);
    if (system === undefined || system === HUMAN_SYSTEM) throw new RangeError(`the match of comment "${m.commentId}" does not start at a system's comment`);
    if (systemOf.get(m.humanCommentId) !== HUMAN_SYSTEM) throw new RangeError(`comment "${m.humanCommentId}" is not a human reviewer's comment`);
    return system;
  };
}

const pairKey = (m: CommentMatch) => `${m.commentId}\u0000${m.humanCommentId}`;

/** The pairs of the human matching that count: fully, and partly unless `partly` is false. */
function judgedPairs(human: readonly JudgedMatch[], partly: boolean): CommentMatch[] {
  return human.filter((m) => partly || m.degree === "fully");
}

export interface MatcherScore {
  system: string;
  /** Pairs the matcher found, the human matching holds, and both. */
  found: number;
  judged: number;
  agreed: number;
  /** agreed / found and agreed / judged; null (with reason) when the denominator is 0. */
  precision: number | null;
  recall: number | null;
  reason?: string;
}

/**
 * An automatic matching scored against the human matching, per system (the system of the
 * pair's comment), over pairs. A partly matching pair counts as a match unless `partly` is false.
 */
export function matcherScores(comments: readonly LocatedComment[], found: readonly CommentMatch[], human: readonly JudgedMatch[], options: { partly?: boolean } = {}): MatcherScore[] {
  const system = systemOfMatch(comments);
  const judged = judgedPairs(human, options.partly ?? true);
  const judgedKeys = new Set(judged.map(pairKey));
  const systems = inTableOrder(comments.filter((c) => c.system !== HUMAN_SYSTEM).map((c) => c.system));
  return systems.map((s) => {
    const own = found.filter((m) => system(m) === s);
    const ownJudged = judged.filter((m) => system(m) === s);
    const agreed = own.filter((m) => judgedKeys.has(pairKey(m))).length;
    const reasons = [own.length === 0 ? "the matcher found no pair" : null, ownJudged.length === 0 ? "the human matching has no pair" : null].filter((r) => r !== null);
    return {
      system: s,
      found: own.length,
      judged: ownJudged.length,
      agreed,
      precision: own.length === 0 ? null : agreed / own.length,
      recall: ownJudged.length === 0 ? null : agreed / ownJudged.length,
      ...(reasons.length === 0 ? {} : { reason: reasons.join("; ") }),
    };
  });
}

export interface SystemMatchRow {
  system: string;
  pullRequests: number;
  /** Human comments, and those some comment of the system matches. */
  humanComments: number;
  matchedHumanComments: number;
  /** The system's comments, and those matching some human comment. */
  comments: number;
  matchingComments: number;
  /** matchedHumanComments / humanComments over pull requests with human comments, CI over them. */
  recall: Rate;
  /** matchingComments / comments over pull requests with the system's comments, CI over them. */
  precision: Rate;
}

/**
 * Per system, how its comments meet the human reviewers' under a matching (the human one, or a
 * matcher's): recall over the human comments of every pull request, precision over the system's
 * comments; micro rates with bootstrap CIs over pull requests.
 */
export function systemMatchRates(comments: readonly LocatedComment[], matches: readonly CommentMatch[], options: Pick<RateOptions, "bootstrap"> = {}): SystemMatchRow[] {
  const system = systemOfMatch(comments);
  const pullRequests = [...new Set(comments.map((c) => c.pullRequest))].sort();
  const humans = comments.filter((c) => c.system === HUMAN_SYSTEM);
  const systems = inTableOrder(comments.filter((c) => c.system !== HUMAN_SYSTEM).map((c) => c.system));
  return systems.map((name) => {
    const own = comments.filter((c) => c.system === name);
    const ownMatches = matches.filter((m) => system(m) === name);
    const matchedHumans = new Set(ownMatches.map((m) => m.humanCommentId));
    const matching = new Set(ownMatches.map((m) => m.commentId));
    const perPr = pullRequests.map((pr) => ({
      humans: humans.filter((h) => h.pullRequest === pr).length,
      matchedHumans: humans.filter((h) => h.pullRequest === pr && matchedHumans.has(h.id)).length,
      own: own.filter((c) => c.pullRequest === pr).length,
      matching: own.filter((c) => c.pullRequest === pr && matching.has(c.id)).length,
    }));
    const withHumans = perPr.filter((p) => p.humans > 0);
    const withOwn = perPr.filter((p) => p.own > 0);
    return {
      system: name,
      pullRequests: withOwn.length,
      humanComments: humans.length,
      matchedHumanComments: matchedHumans.size,
      comments: own.length,
      matchingComments: matching.size,
      recall: clusteredRates(withHumans.map((p) => p.matchedHumans), withHumans.map((p) => p.humans), "no human comments", options).micro,
      precision: clusteredRates(withOwn.map((p) => p.matching), withOwn.map((p) => p.own), "the system has no comments", options).micro,
    };
  });
}

/**
 * Per system, its comments judged useful (c-CRAB §5.2: tools raise concerns of their own, often
 * useful ones) that match no human comment under a matching: of its comments with a consensus
 * on usefulness, the useful ones and the useful unmatched ones.
 */
export function usefulUnmatched(comments: readonly LocatedComment[], matches: readonly CommentMatch[], usefulOf: (commentId: string) => boolean | null): { system: string; decided: number; useful: number; usefulUnmatched: number }[] {
  const matching = new Set(matches.map((m) => m.commentId));
  const systems = inTableOrder(comments.filter((c) => c.system !== HUMAN_SYSTEM).map((c) => c.system));
  return systems.map((system) => {
    const decided = comments.filter((c) => c.system === system && usefulOf(c.id) !== null);
    const useful = decided.filter((c) => usefulOf(c.id) === true);
    return { system, decided: decided.length, useful: useful.length, usefulUnmatched: useful.filter((c) => !matching.has(c.id)).length };
  });
}

/** A system's matching row with its useful comments no human comment matches (null without the question `useful`). */
export type MatchRow = SystemMatchRow & { usefulDecided: number | null; useful: number | null; usefulUnmatched: number | null };

/** Each system's recall, precision and useful unmatched comments under a matching. */
function matchRows(comments: readonly LocatedComment[], matches: readonly CommentMatch[], usefulAnswer: ((commentId: string) => string | null) | null): MatchRow[] {
  const useful = usefulAnswer ? usefulUnmatched(comments, matches, (id) => (usefulAnswer(id) === null ? null : usefulAnswer(id) === "yes")) : [];
  return systemMatchRates(comments, matches).map((row) => {
    const u = useful.find((x) => x.system === row.system);
    return { ...row, usefulDecided: u?.decided ?? null, useful: u?.useful ?? null, usefulUnmatched: u?.usefulUnmatched ?? null };
  });
}

/** The location matcher's implementation version, part of its signature. */
const LOCATION_IMPL = "impl:1";

/** The location matcher's signature (as a metric's names how its values were computed, docs/glossary.md): its kind, k and how it reads ranges. */
export const locationSignature = (k: number) => `matcher:location|k:${k}|side:same|range:one-side|whole-file:whole-file|${LOCATION_IMPL}`;

/** Matching recall and precision per system under the location matcher, useful comments it leaves unmatched, and its scores against the human matching. */
export interface LocationMatching {
  matcher: { kind: "location"; k: number; signature: string };
  pairs: number;
  systems: MatchRow[];
  /** Its pairs' precision and recall against the human matching, per system; null without a human matching. */
  scores: MatcherScore[] | null;
}

/** A location matcher's pairs (found now or stored by a run) as a matching: each system's rows under them, scored against `human` when given. */
function locationMatchingOf(k: number, signature: string, comments: readonly LocatedComment[], matches: readonly CommentMatch[], usefulAnswer: ((commentId: string) => string | null) | null, human: readonly JudgedMatch[] | null): LocationMatching {
  return { matcher: { kind: "location", k, signature }, pairs: matches.length, systems: matchRows(comments, matches, usefulAnswer), scores: human ? matcherScores(comments, matches, human) : null };
}

/** The location matcher's pairs and each system's recall, precision and useful unmatched comments under them; scored against `human` when given. */
export function locationMatching(comments: LocatedComment[], k: number, usefulAnswer: ((commentId: string) => string | null) | null, human: readonly JudgedMatch[] | null = null): LocationMatching {
  return locationMatchingOf(k, locationSignature(k), comments, locationMatches(comments, k), usefulAnswer, human);
}

/** A stored run of the location matcher (MatcherRun): its matching from the pairs it stored, named by the run and the signature it was computed with. */
export interface StoredLocationMatching extends LocationMatching {
  run: { id: string; createdAt: string };
}

export function storedLocationMatching(run: { id: string; createdAt: Date; k: number; signature: string }, comments: readonly LocatedComment[], stored: readonly CommentMatch[], usefulAnswer: ((commentId: string) => string | null) | null, human: readonly JudgedMatch[] | null): StoredLocationMatching {
  return { run: { id: run.id, createdAt: run.createdAt.toISOString() }, ...locationMatchingOf(run.k, run.signature, comments, stored, usefulAnswer, human) };
}

/** A judge rater's answers to the matching question as a matcher (the LLM matcher): its pairs answered fully or partly, each system's rows under them, and its scores against the human matching. */
export interface JudgeMatching {
  matcher: { kind: "llm"; judge: string; signature: string };
  pairs: number;
  systems: MatchRow[];
  scores: MatcherScore[] | null;
}

/** A judge run's settings, as its LLM matcher's signature names them. */
export interface JudgeRunSettings {
  model: string;
  promptVersion: string;
  temperature: number;
  seed: number | null;
  trials: number;
}

/** An LLM matcher's signature: each distinct setting of its judge's runs on the question, in run order, joined by "; ". */
export const judgeSignature = (judge: string, runs: readonly JudgeRunSettings[]) =>
  [...new Set(runs.map((r) => `${judge}|model:${r.model}|prompt:${r.promptVersion}|temperature:${r.temperature}|seed:${r.seed ?? "none"}|trials:${r.trials}`))].join("; ");

export function judgeMatching(judge: string, signature: string, comments: readonly LocatedComment[], answered: readonly JudgedMatch[], usefulAnswer: ((commentId: string) => string | null) | null, human: readonly JudgedMatch[] | null): JudgeMatching {
  return { matcher: { kind: "llm", judge, signature }, pairs: answered.length, systems: matchRows(comments, answered, usefulAnswer), scores: human ? matcherScores(comments, answered, human) : null };
}

/** The annotators' matching: the pairs with a consensus degree (fully, partly or none), those matched, and each system's rows under it. */
export interface HumanMatching {
  /** Every (system comment, human comment) pair of the study's pull requests, and those with a consensus degree. */
  pairs: number;
  decided: number;
  fully: number;
  partly: number;
  /** Fully and partly matching pairs count as matches (docs/test-results.md). */
  systems: MatchRow[];
}

/** Each system's recall, precision and useful unmatched comments under the human matching (the consensus's fully and partly matching pairs; an undecided pair is no match). */
export function humanMatching(comments: readonly LocatedComment[], judged: readonly JudgedMatch[], decided: number, usefulAnswer: ((commentId: string) => string | null) | null): HumanMatching {
  const humans = new Map<string, number>();
  for (const c of comments) if (c.system === HUMAN_SYSTEM) humans.set(c.pullRequest, (humans.get(c.pullRequest) ?? 0) + 1);
  const pairs = comments.filter((c) => c.system !== HUMAN_SYSTEM).reduce((n, c) => n + (humans.get(c.pullRequest) ?? 0), 0);
  return { pairs, decided, fully: judged.filter((m) => m.degree === "fully").length, partly: judged.filter((m) => m.degree === "partly").length, systems: matchRows(comments, judged, usefulAnswer) };
}
