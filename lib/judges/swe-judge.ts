/**
 * Running SWE-Judge against a model: the strategies of a team on one review (§3.1), the final
 * score (§3.3), and the team trials on a few annotated reviews (§3.2). P2 reuses the P1a
 * answer it rethinks; the first steps of P4 and P5 depend only on the code change and the
 * reference, so their answers are shared by every review of the same change (`stepCache`).
 */
import { createHash } from "node:crypto";
import { askParsed, type Asked } from "./ask";
import type { ChatClient } from "./client";
import { PERCENT, parseJsonScore } from "./parse";
import {
  directAssessMessages,
  equivalenceMessages,
  generateTestsMessages,
  keyPointsCoverageMessages,
  keyPointsMessages,
  passTestsMessages,
  rethinkMessages,
  SWE_STRATEGIES,
  type SweJudgeInput,
  type SweStrategy,
} from "./swe-judge-prompts";
import { ensembleScore, selectTeam, sweJudgeOnScale, type StrategyScores, type TeamSelection } from "./swe-judge-team";
import { clip } from "./text";
import type { ChatMessage, JsonObject, JudgeResult, Scale } from "./types";

/** Answers of first steps (tests, key points) by a hash of model and messages. */
export type StepCache = Map<string, Promise<string>>;

export interface SweRunOptions {
  /** Requests per strategy until a 0-100 score is read. Default 3. */
  attempts?: number;
  /** Shared first-step answers; a judge keeps one for its lifetime. */
  stepCache?: StepCache;
  signal?: AbortSignal;
}

/** The strategies' verdicts on one review. */
export interface StrategyRun {
  /** 0-100 score of each strategy that gave one. */
  scores: StrategyScores;
  /** Why a strategy gave no score. */
  failures: Partial<Record<SweStrategy, string>>;
  /** Each strategy's answers (first step included), clipped. */
  outputs: Partial<Record<SweStrategy, string[]>>;
}

interface Outcome {
  score: number | null;
  error?: string;
  outputs: string[];
}

type ScoreAnswer = { score: number; reason: string | null };

const fromAsked = (asked: Asked<ScoreAnswer>, before: readonly string[] = []): Outcome =>
  asked.ok ? { score: asked.value.score, outputs: [...before, ...asked.outputs] } : { score: null, error: asked.error, outputs: [...before, ...asked.outputs] };

/** A first-step answer, asked once per (model, messages) while the cache lives; failures are not kept. */
function cachedStep(client: ChatClient, messages: readonly ChatMessage[], cache: StepCache, signal: AbortSignal | undefined): Promise<string> {
  const key = createHash("sha256").update(JSON.stringify([client.model, client.temperature, messages])).digest("hex");
  let answer = cache.get(key);
  if (!answer) {
    answer = client.complete({ messages, signal }).then((c) => c.content.trim());
    cache.set(key, answer);
    answer.catch(() => cache.delete(key));
  }
  return answer;
}

/** Runs `strategies` on one review, concurrently (the client bounds requests in flight). */
export async function runStrategies(client: ChatClient, input: SweJudgeInput, strategies: readonly SweStrategy[], options: SweRunOptions = {}): Promise<StrategyRun> {
  const { signal } = options;
  const cache = options.stepCache ?? new Map<string, Promise<string>>();
  const ask = (messages: ChatMessage[]) => askParsed(client, messages, (t) => parseJsonScore(t, PERCENT), options.attempts ?? 3, signal);
  let p1a: Promise<Asked<ScoreAnswer>> | undefined;
  const directAssess = () => (p1a ??= ask(directAssessMessages(input, false)));

  /** A two-step strategy: a list from the change and the reference, then a score of the review against it. */
  async function twoStep(first: ChatMessage[], second: (list: string) => ChatMessage[], what: string): Promise<Outcome> {
    const list = await cachedStep(client, first, cache, signal);
    if (list === "") return { score: null, error: `the first step gave no ${what}`, outputs: [list] };
    return fromAsked(await ask(second(list)), [clip(list)]);
  }

  async function run(strategy: SweStrategy): Promise<Outcome> {
    switch (strategy) {
      case "P1a":
        return fromAsked(await directAssess());
      case "P1b":
        return fromAsked(await ask(directAssessMessages(input, true)));
      case "P2": {
        const first = await directAssess();
        if (!first.ok) return { score: null, error: `P1a gave no score to rethink: ${first.error}`, outputs: [] };
        const output = first.outputs[first.outputs.length - 1];
        return fromAsked(await ask(rethinkMessages(input, { output, ...first.value })));
      }
      case "P3":
        return fromAsked(await ask(equivalenceMessages(input)));
      case "P4":
        return twoStep(generateTestsMessages(input), (tests) => passTestsMessages(input, tests), "tests");
      case "P5":
        return twoStep(keyPointsMessages(input), (points) => keyPointsCoverageMessages(input, points), "key points");
    }
  }

  const outcomes = await Promise.all(strategies.map(run));
  const result: StrategyRun = { scores: {}, failures: {}, outputs: {} };
  strategies.forEach((s, i) => {
    const { score, error, outputs } = outcomes[i];
    if (score !== null) result.scores[s] = score;
    if (error !== undefined) result.failures[s] = error;
    result.outputs[s] = outputs.map((o) => clip(o));
  });
  return result;
}

/** A run as JSON for a result detail. */
function runDetail(run: StrategyRun): JsonObject {
  const pick = <V extends string | number | string[]>(record: Partial<Record<SweStrategy, V>>) =>
    Object.fromEntries(SWE_STRATEGIES.flatMap((s) => (record[s] === undefined ? [] : [[s, record[s] as V]])));
  return { scores: pick(run.scores), failures: pick(run.failures), outputs: pick(run.outputs) };
}

/**
 * §3.3: the team's strategies score the review, their mean ŝ (0-100) is mapped onto `scale`;
 * `detail.point` is the scale's nearest point, what κ with the annotators counts (§5.2).
 * `value` is null ("strategy-failed") when a member gave no score; the others stay in `detail`.
 */
export async function sweJudgeScore(client: ChatClient, input: SweJudgeInput, team: readonly SweStrategy[], scale: Scale, options: SweRunOptions = {}): Promise<JudgeResult> {
  const run = await runStrategies(client, input, team, options);
  const ensemble = ensembleScore(run.scores, team);
  const detail: JsonObject = { team: [...team], ensemble, ...runDetail(run) };
  if (ensemble === null) return { value: null, reason: "strategy-failed", detail };
  const { value, point } = sweJudgeOnScale(ensemble, scale);
  return { value, detail: { ...detail, point } };
}

export interface CalibrationItem {
  input: SweJudgeInput;
  /** The human score on the target scale. */
  human: number;
}

export interface Calibration {
  selection: TeamSelection;
  /** Every strategy's verdicts on each item, in item order. */
  runs: StrategyRun[];
  /** Items left out of the trials because a strategy gave no score. */
  excluded: number[];
}

/**
 * §3.2: runs every candidate strategy on a few annotated reviews (the paper samples 10, see
 * `calibrationSample`) and selects the team whose mean score correlates best with the humans.
 */
export async function calibrateSweJudge(
  client: ChatClient,
  items: readonly CalibrationItem[],
  options: SweRunOptions & { strategies?: readonly SweStrategy[]; minSize?: number } = {},
): Promise<Calibration> {
  const strategies = options.strategies ?? SWE_STRATEGIES;
  const stepCache = options.stepCache ?? new Map<string, Promise<string>>();
  const runs = await Promise.all(items.map((item) => runStrategies(client, item.input, strategies, { ...options, stepCache })));
  const excluded = runs.flatMap((run, i) => (Object.keys(run.failures).length > 0 ? [i] : []));
  const samples = items.flatMap((item, i) => (excluded.includes(i) ? [] : [{ human: item.human, scores: runs[i].scores }]));
  return { selection: selectTeam(samples, { strategies, minSize: options.minSize }), runs, excluded };
}
