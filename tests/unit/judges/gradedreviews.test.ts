/**
 * GradedReviews LLM-based Scoring (§5.2): the prompt (criteria and texts), the four measures
 * against randomness as pure functions, and the whole procedure against a loopback server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { aggregateTrialGrades, capModelGrade, createChatClient, gradeAgainstReference, GRADEDREVIEWS_CRITERIA, gradedReviewsMessages, type ChatClient } from "@/lib/judges";
import { startFakeLlm, userText, type FakeLlm } from "./fake-llm";

const input = {
  generated: "Please check for null before calling `user.getName()`.",
  reference: "This can throw an NPE when user is null; add a null check.",
  codeChange: "@@ -1 +1 @@\n-return name;\n+return user.getName();",
};

describe("prompt", () => {
  test("system role, the five criteria of §4.3, the output rule and both reviews", () => {
    const [system, user] = gradedReviewsMessages(input);
    expect(system.role).toBe("system");
    expect(system.content).toContain("ten times");
    expect(system.content).toContain("do not explain");
    expect(user.role).toBe("user");
    for (const criterion of GRADEDREVIEWS_CRITERIA) expect(user.content).toContain(criterion);
    expect(user.content).toMatch(/Grade 5: .*identical/);
    expect(user.content).toMatch(/Grade 4: .*essentially equivalent/);
    expect(user.content).toMatch(/Grade 3: .*some of the comments or suggestions/);
    expect(user.content).toMatch(/Grade 2: .*loosely related/);
    expect(user.content).toMatch(/Grade 1: .*unrelated/);
    expect(user.content).toContain("a single integer from 1 to 5, with no explanation");
    expect(user.content).toContain(`<generated_review>\n${input.generated}\n</generated_review>`);
    expect(user.content).toContain(`<reference_review>\n${input.reference}\n</reference_review>`);
    expect(user.content.indexOf("<generated_review>")).toBeLessThan(user.content.indexOf("<reference_review>"));
  });

  test("the code change is left out unless asked for (§4.3 grades against the reference only)", () => {
    expect(gradedReviewsMessages(input)[1].content).not.toContain("user.getName();\n</code_change>");
    const withCode = gradedReviewsMessages(input, true)[1].content;
    expect(withCode).toContain(`<code_change>\n${input.codeChange}\n</code_change>`);
    expect(withCode).toContain("for context only");
  });
});

describe("measures against randomness", () => {
  test("second: the most frequent grade, else the median", () => {
    expect(aggregateTrialGrades([5, 4, 3])).toBe(4);
    expect(aggregateTrialGrades([2, 4, 2])).toBe(2);
    expect(aggregateTrialGrades([1, 1, 1])).toBe(1);
    expect(aggregateTrialGrades([1, 3, 2])).toBe(2);
    expect(aggregateTrialGrades([4, 4, 1, 1, 2])).toBe(2);
    expect(() => aggregateTrialGrades([])).toThrow(RangeError);
  });

  test("third: a model's 5 becomes 4", () => {
    expect([1, 2, 3, 4, 5].map(capModelGrade)).toEqual([1, 2, 3, 4, 4]);
  });
});

describe("grading over HTTP", () => {
  let fake: FakeLlm;
  let client: ChatClient;

  beforeAll(async () => {
    fake = await startFakeLlm();
    client = createChatClient({ url: fake.url, model: "grader", backoffMs: 1 }, {});
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  test("first: an exact match (up to whitespace) is 5 without a request", async () => {
    const result = await gradeAgainstReference(client, { generated: "Add a  null check.\n", reference: "Add a null check." });
    expect(result).toEqual({ value: 5, detail: { procedure: "exact-match" } });
    expect(fake.requests).toHaveLength(0);
  });

  test("three trials with the prompt sent as built; majority grade", async () => {
    const answers = ["3", "Grade: 4", "4"];
    fake.handle((_, i) => ({ content: answers[i] }));
    const result = await gradeAgainstReference(client, input);
    expect(result.value).toBe(4);
    expect(result.detail).toMatchObject({ procedure: "llm" });
    expect([...(result.detail.grades as number[])].sort()).toEqual([3, 4, 4]);
    expect(fake.requests).toHaveLength(3);
    for (const r of fake.requests) {
      expect(r.messages).toEqual(gradedReviewsMessages(input));
      expect(r.temperature).toBe(0);
      expect(userText(r)).toContain(input.generated);
    }
  });

  test("all three differ: the median, after a model 5 became 4", async () => {
    const answers = ["5", "2", "3"];
    fake.handle((_, i) => ({ content: answers[i] }));
    expect((await gradeAgainstReference(client, input)).value).toBe(3);
  });

  test("a unanimous 5 from the model is 4, since the reviews differ", async () => {
    fake.handle(() => ({ content: "5" }));
    expect((await gradeAgainstReference(client, input)).value).toBe(4);
  });

  test("fourth: an answer outside 1-5 is asked again", async () => {
    fake.handle((_, i) => ({ content: i === 0 ? "Grade=7" : "2" }));
    const result = await gradeAgainstReference(client, input);
    expect(result.value).toBe(2);
    expect(fake.requests).toHaveLength(4);
    expect((result.detail.outputs as string[][]).flat().sort()).toEqual(["2", "2", "2", "Grade=7"]);
  });

  test("fourth: no valid grade after three attempts, so no grade at all", async () => {
    fake.handle((_, i) => ({ content: i < 3 ? "I cannot say." : "3" }));
    const result = await gradeAgainstReference(client, input, { trials: 1 });
    expect(result).toMatchObject({ value: null, reason: "no-valid-grade", detail: { grades: [] } });
    expect(fake.requests).toHaveLength(3);
  });

  test("trials must be odd", async () => {
    await expect(gradeAgainstReference(client, input, { trials: 2 })).rejects.toThrow("positive odd integer");
  });
});
