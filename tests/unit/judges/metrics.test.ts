/**
 * The judges as metrics: names, signatures and ranges; the not-configured error; missing
 * inputs; CRScore's reference-free LaaJ prompt; and each judge end to end over loopback.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  createChatClient,
  createJudgeMetric,
  crscoreJudgeMessages,
  crscoreJudgeMetric,
  gradedReviewsMetric,
  JUDGE_METRIC_NAMES,
  LlmNotConfiguredError,
  LlmRequestError,
  sweJudgeMetric,
  type ChatClient,
} from "@/lib/judges";
import { startFakeLlm, userText, type FakeLlm } from "./fake-llm";

const codeChange = "@@ -3 +3 @@\n-    return x\n+    return x or default";

describe("CRScore LaaJ prompt (Appendix D.4)", () => {
  test("relevance: the definitions, the language, the change and the review, no reference", () => {
    const [system, user] = crscoreJudgeMessages({ review: "Why default here?", codeChange, language: "Python" });
    expect(system.content).toContain("rate the relevance of reviews of code changes");
    expect(user.content).toContain("A relevant review is one which is both concise and comprehensive.");
    expect(user.content).toContain("A concise review contains very little text that is not related to the code change.");
    expect(user.content).toContain("A comprehensive review contains all the information about the code change that a review should cover.");
    expect(user.content).toContain("Now read the Python code change and the review below, and rate the relevance of the review on a scale of 1 to 5.");
    expect(user.content).toContain(`<code_change>\n${codeChange}\n</code_change>`);
    expect(user.content).toContain("<review>\nWhy default here?\n</review>");
    expect(user.content.trimEnd().endsWith("Your score:")).toBe(true);
    expect(user.content).not.toContain("reference");
  });

  test("the other dimensions use their own definition; an unknown language is left out", () => {
    const con = crscoreJudgeMessages({ review: "r", codeChange }, "conciseness")[1].content;
    expect(con).toContain("rate the conciseness of the review");
    expect(con).toContain("Now read the code change and the review");
    expect(con).not.toContain("relevant review");
    expect(crscoreJudgeMessages({ review: "r", codeChange }, "comprehensiveness")[1].content).toContain("It conveys all the necessary information.");
  });
});

describe("not configured", () => {
  test("every judge fails with the same clear error, naming LLM_URL", () => {
    for (const name of JUDGE_METRIC_NAMES) {
      expect(() => createJudgeMetric(name, {}, {})).toThrow(LlmNotConfiguredError);
      expect(() => createJudgeMetric(name, {}, {})).toThrow("LLM judge not configured: set LLM_URL");
    }
  });

  test("unknown names list the judges", () => {
    expect(() => createJudgeMetric("gpt-judge", {}, { LLM_URL: "http://h", LLM_MODEL: "m" })).toThrow(`unknown LLM judge "gpt-judge"; available: ${JUDGE_METRIC_NAMES.join(", ")}`);
  });
});

describe("metric descriptors", () => {
  const env = { LLM_URL: "http://127.0.0.1:9", LLM_MODEL: "gpt-4o-mini" };

  test("names, ranges and signatures with model and prompt version", () => {
    const metrics = JUDGE_METRIC_NAMES.map((n) => createJudgeMetric(n, {}, env));
    expect(metrics.map((m) => m.name)).toEqual([...JUDGE_METRIC_NAMES]);
    expect(metrics.every((m) => m.range[0] === 1 && m.range[1] === 5 && m.higherIsBetter)).toBe(true);
    expect(metrics[0].signature).toBe("model:gpt-4o-mini|prompt:gradedreviews-v1|temp:0|code:no|trials:3|attempts:3|exact:whitespace|impl:1");
    expect(metrics[1].signature).toBe("model:gpt-4o-mini|prompt:swe-judge-review-v1|temp:0|team:P1a+P1b+P2+P3+P4+P5|scale:1-5|attempts:3|impl:1");
    expect(metrics[2].signature).toBe("model:gpt-4o-mini|prompt:crscore-laaj-v1|temp:0|dim:relevance|attempts:3|impl:1");
    expect(metrics.map((m) => m.needs)).toEqual([
      { reference: true, codeChange: false },
      { reference: true, codeChange: true },
      { reference: false, codeChange: true },
      { reference: false, codeChange: true },
      { reference: false, codeChange: true },
    ]);
  });

  test("settings that change values change the signature", () => {
    const swe = createJudgeMetric("swe-judge", { sweJudge: { team: ["P1b", "P3"], scale: { min: 0, max: 4 } }, llm: { temperature: 0.7 } }, env);
    expect(swe.signature).toBe("model:gpt-4o-mini|prompt:swe-judge-review-v1|temp:0.7|team:P1b+P3|scale:0-4|attempts:3|impl:1");
    expect(swe.range).toEqual([0, 4]);
    expect(swe.label).toBe("SWE-Judge (P1b+P3)");
    expect(createJudgeMetric("llm-judge-gradedreviews", { gradedReviews: { includeCode: true } }, env).signature).toContain("|code:yes|");
    expect(() => createJudgeMetric("swe-judge", { sweJudge: { team: [] } }, env)).toThrow("invalid SWE-Judge team");
  });

  test("missing inputs give null with a reason, without a request", async () => {
    const client = createChatClient({}, env);
    expect(await gradedReviewsMetric(client).score("x", null)).toEqual({ value: null, reason: "no-reference-review", detail: {} });
    expect(await gradedReviewsMetric(client, { includeCode: true }).score("x", "y", {})).toMatchObject({ reason: "no-code-change" });
    expect(await sweJudgeMetric(client).score("x", "y", { codeChange: null })).toMatchObject({ reason: "no-code-change" });
    expect(await crscoreJudgeMetric(client).score("x", "y")).toMatchObject({ reason: "no-code-change" });
  });
});

describe("judges end to end over HTTP", () => {
  let fake: FakeLlm;
  let client: ChatClient;

  beforeAll(async () => {
    fake = await startFakeLlm();
    client = createChatClient({ url: fake.url, model: "m", backoffMs: 1, maxAttempts: 2 }, {});
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  test("GradedReviews", async () => {
    fake.handle(() => ({ content: "3" }));
    expect(await gradedReviewsMetric(client).score("Rename x.", "Use a clearer name than x.")).toMatchObject({ value: 3 });
  });

  test("SWE-Judge", async () => {
    fake.handle(() => ({ content: '{"score": 25}' }));
    expect(await sweJudgeMetric(client, { team: ["P1a", "P3"] }).score("Rename x.", "Use a clearer name.", { codeChange })).toMatchObject({ value: 2 });
  });

  test("CRScore LaaJ, with the language and without the reference", async () => {
    fake.handle(() => ({ content: "Your score: 4" }));
    const result = await crscoreJudgeMetric(client, "relevance").score("Why default here?", "REFERENCE TEXT", { codeChange, language: "Python" });
    expect(result).toEqual({ value: 4, detail: { dimension: "relevance", outputs: ["Your score: 4"] } });
    expect(userText(fake.requests[0])).toContain("Python code change");
    expect(userText(fake.requests[0])).not.toContain("REFERENCE TEXT");
  });

  test("an unreadable rating is asked again, then null", async () => {
    fake.handle(() => ({ content: "relevant enough" }));
    expect(await crscoreJudgeMetric(client, "conciseness", { attempts: 2 }).score("r", null, { codeChange })).toMatchObject({ value: null, reason: "no-valid-grade" });
    expect(fake.requests).toHaveLength(2);
  });

  test("endpoint failures are thrown, not scored", async () => {
    fake.handle(() => ({ status: 500, body: "boom" }));
    await expect(crscoreJudgeMetric(client).score("r", null, { codeChange })).rejects.toThrow(LlmRequestError);
  });
});
