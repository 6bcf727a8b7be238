/**
 * SWE-Judge against a loopback server: each strategy's prompts (what they contain and leave
 * out), P2 rethinking the P1a answer in the same conversation, first steps shared across
 * reviews of one change, the final score on 1-5, and team trials on annotated reviews.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { calibrateSweJudge, createChatClient, runStrategies, sweJudgeScore, SWE_STRATEGIES, type ChatClient, type SweJudgeInput } from "@/lib/judges";
import { startFakeLlm, sweJudgeStep as stepOf, userText, type FakeLlm, type ReceivedRequest, type Reply } from "./fake-llm";

const input: SweJudgeInput = {
  generated: "REVIEW: guard against a null user before getName().",
  reference: "REFERENCE: this throws when user is null; add a null check.",
  codeChange: "CHANGE: -return name;\n+return user.getName();",
};

const answers: Record<string, string> = {
  P1a: '{"score": 40, "reason": "It misses that the old code returned a cached name."}',
  P1b: "Score: 60",
  P2: '{"score": 50, "reason": "The earlier reason does not hold."}',
  P3: '```json\n{"score": 70, "reason": "Same issue."}\n```',
  "P4-tests": "1. Does the comment mention a null user?\n2. Does it ask for a check?",
  P4: '{"score": 80}',
  "P5-points": "1. user may be null\n2. add a null check",
  P5: '{"score": 90, "reason": "Both points."}',
};

const steps = (fake: FakeLlm) => fake.requests.map(stepOf).sort();

describe("SWE-Judge over HTTP", () => {
  let fake: FakeLlm;
  let client: ChatClient;

  beforeAll(async () => {
    fake = await startFakeLlm();
    client = createChatClient({ url: fake.url, model: "judge", backoffMs: 1, maxConcurrency: 8 }, {});
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.reset();
    fake.handle((r): Reply => ({ content: answers[stepOf(r)] }));
  });

  test("all six variants score; P1a is asked once for itself and P2", async () => {
    const run = await runStrategies(client, input, SWE_STRATEGIES);
    expect(run.scores).toEqual({ P1a: 40, P1b: 60, P2: 50, P3: 70, P4: 80, P5: 90 });
    expect(run.failures).toEqual({});
    expect(steps(fake)).toEqual(["P1a", "P1b", "P2", "P3", "P4", "P4-tests", "P5", "P5-points"]);
    expect(run.outputs.P4).toEqual([answers["P4-tests"], answers.P4]);
  });

  test("each prompt shows what its strategy needs, asks for 0-100 or a list, and hides the reference from P1a", async () => {
    await runStrategies(client, input, SWE_STRATEGIES);
    const byStep = new Map(fake.requests.map((r) => [stepOf(r), userText(r)]));
    const has = (step: string, ...texts: string[]) => texts.forEach((t) => expect(byStep.get(step)).toContain(t));
    const lacks = (step: string, ...texts: string[]) => texts.forEach((t) => expect(byStep.get(step)).not.toContain(t));
    for (const step of ["P1a", "P1b", "P2", "P3", "P4", "P5"]) has(step, "[Task Description]", "[Evaluation Steps]", '{"score": <number from 0 to 100>');
    has("P1a", input.codeChange, input.generated, "Correctness (0-100)");
    lacks("P1a", input.reference);
    has("P1b", input.codeChange, input.generated, input.reference);
    has("P3", input.codeChange, input.generated, input.reference, "Semantic equivalence (0-100)");
    has("P4-tests", input.codeChange, input.reference, "yes/no question");
    lacks("P4-tests", input.generated);
    has("P4", input.generated, answers["P4-tests"]);
    has("P5-points", input.codeChange, input.reference, "essential components");
    lacks("P5-points", input.generated);
    has("P5", input.generated, answers["P5-points"], "Key points coverage (0-100)");
  });

  test("P2 continues the P1a conversation with its score and reason", async () => {
    await runStrategies(client, input, ["P2"]);
    const rethink = fake.requests.find((r) => stepOf(r) === "P2") as ReceivedRequest;
    expect(rethink.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(rethink.messages[2].content).toBe(answers.P1a);
    expect(rethink.messages[3].content).toContain("Previous score: 40\nPrevious reason: It misses that the old code returned a cached name.");
    expect(rethink.messages[3].content).toContain("increase the score a bit");
    expect(rethink.messages[3].content).toContain("decrease the score a bit");
    expect(rethink.messages[3].content).toContain("do not change the score");
  });

  test("first steps are asked once per change and model, then shared", async () => {
    const stepCache = new Map<string, Promise<string>>();
    await runStrategies(client, input, ["P4", "P5"], { stepCache });
    await runStrategies(client, { ...input, generated: "Another review." }, ["P4", "P5"], { stepCache });
    expect(steps(fake)).toEqual(["P4", "P4", "P4-tests", "P5", "P5", "P5-points"]);
  });

  test("final score: the team's mean on 0-100 mapped onto 1-5", async () => {
    const result = await sweJudgeScore(client, input, ["P1b", "P3"], { min: 1, max: 5 });
    expect(result.value).toBeCloseTo(3.6, 12); // (60 + 70)/2 = 65 → 65/100·4 + 1
    expect(result.detail).toMatchObject({ team: ["P1b", "P3"], ensemble: 65, scores: { P1b: 60, P3: 70 }, failures: {} });
    expect(steps(fake)).toEqual(["P1b", "P3"]);
  });

  test("an unreadable strategy is asked again, then leaves the review without a score", async () => {
    fake.handle((r) => ({ content: stepOf(r) === "P3" ? "They look similar." : answers[stepOf(r)] }));
    const result = await sweJudgeScore(client, input, ["P1b", "P3"], { min: 1, max: 5 }, { attempts: 2 });
    expect(result).toMatchObject({ value: null, reason: "strategy-failed", detail: { scores: { P1b: 60 }, failures: { P3: 'expected a number from 0 to 100, got "They look similar."' } } });
    expect(steps(fake)).toEqual(["P1b", "P3", "P3"]);
  });

  test("P2 without a P1a score fails with the reason", async () => {
    fake.handle((r) => ({ content: stepOf(r) === "P1a" ? "no idea" : answers[stepOf(r)] }));
    const run = await runStrategies(client, input, ["P2"], { attempts: 1 });
    expect(run.failures.P2).toContain("P1a gave no score to rethink");
  });

  test("team trials on annotated reviews select the best-correlated team", async () => {
    // Per review i (human i): P1a 10i, P3 50 − 10i, P5 as in the pure example (10, 30, 20, 40).
    const p5 = [10, 30, 20, 40];
    fake.handle((r) => {
      const i = Number(/REVIEW (\d)/.exec(userText(r))?.[1] ?? "0");
      const step = stepOf(r);
      if (step === "P1a") return { content: `{"score": ${10 * i}}` };
      if (step === "P3") return { content: `{"score": ${50 - 10 * i}}` };
      if (step === "P5") return { content: `{"score": ${p5[i - 1]}}` };
      return { content: answers[step] };
    });
    const items = [1, 2, 3, 4].map((i) => ({ input: { ...input, generated: `REVIEW ${i}` }, human: i }));
    const calibration = await calibrateSweJudge(client, items, { strategies: ["P1a", "P3", "P5"] });
    expect(calibration.selection.team).toEqual(["P1a", "P5"]);
    expect(calibration.excluded).toEqual([]);
    expect(calibration.runs.map((r) => r.scores.P1a)).toEqual([10, 20, 30, 40]);
    expect(steps(fake).filter((s) => s === "P5-points")).toHaveLength(1);
  });
});
