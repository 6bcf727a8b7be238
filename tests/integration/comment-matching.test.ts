/**
 * The matching question on a real PostgreSQL (c-CRAB §5.2): per system comment, a degree (fully,
 * partly, none) toward each human comment of the same pull request, saved as part of the
 * comment's answers. The workspace marks the human comments; a save naming a comment that is not
 * a human comment of the pull request, or matching a human comment, is refused; the question is
 * missing until every human comment has a degree. Two annotators' answers give the agreement of
 * each (system comment, human comment) pair as an ordinal item, the figures computed by hand
 * below; consensus and adjudication work on pairs. The tools report reads the consensus as the
 * human matching (recall, precision, useful unmatched per system) and scores the location matcher
 * against it. The location matcher's runs are stored with their signature and pairs (from the
 * command line, or queued for the worker as the tools page does), and the report reads the newest
 * run of each signature from its stored pairs. The exports carry the degrees and their consensus keyed by the human comment's
 * external id: long rows of question matches:HUMAN, and the JSONL's answers and consensus. A judge
 * run on the matching question (a loopback server speaking the chat API) is the LLM matcher: its
 * answers are stored per pair in the judge's comment answers, and the report scores it against
 * the human matching without counting it in the consensus.
 */
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { SaveRequest } from "@/lib/annotation/values";
import { COMMENT_QUESTION_TEMPLATES, type CommentQuestionInput } from "@/lib/annotation/comment-questions";
import { pairItemId } from "@/lib/tasks/comment-questions";
import { asAccount } from "./annotation-fixture";
import { startFakeLlm, userText } from "../unit/judges/fake-llm";
import { createCommentQuestionsFixture, removeCommentQuestionsFixture, type CommentQuestionsFixture } from "./comment-questions-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { getWorkspace, saveAnnotation, submitAssignment } = await import("@/lib/data/annotations");
const { generateAssignments } = await import("@/lib/data/assignment-admin");
const { adjudicationQueue, adjudicationItem, saveConsensus } = await import("@/lib/data/adjudication");
const { taskConsensus } = await import("@/lib/data/consensus");
const { requireStudy } = await import("@/lib/data/studies");
const { agreementReport } = await import("@/lib/data/reports");
const { studyToolsReport } = await import("@/lib/data/tools-report");
const { streamExport } = await import("@/lib/data/exports");
const { codeChangeLineSchema } = await import("@/lib/import/jsonl-schema");
const { runJudge } = await import("@/lib/judge-runs/run");
const { queueLocationMatcher, runLocationMatcher, startMatcherRunSchema } = await import("@/lib/matcher-runs/run");
const { workMatcherRuns } = await import("@/lib/matcher-runs/work");
const { ledStudyMatcherRuns } = await import("@/lib/data/matcher-runs");
const { jobIdOf, MATCHER_QUEUE, sendQueue, startQueue } = await import("@/lib/jobs");

async function exported(format: "long-csv" | "jsonl"): Promise<string> {
  let text = "";
  for await (const chunk of streamExport({ studyId: fx.study.studyId, format, filter: {} })) text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  return text;
}

const QUESTIONS: CommentQuestionInput[] = [COMMENT_QUESTION_TEMPLATES.useful, COMMENT_QUESTION_TEMPLATES.matches];

let fx: CommentQuestionsFixture;
const lead = () => ({ id: fx.accounts.lead, role: "LEAD" as const });
const assignment: Record<"ann1" | "ann2", string> = { ann1: "", ann2: "" };
const c = (id: string) => fx.study.comments[id];

beforeAll(async () => {
  fx = await createCommentQuestionsFixture(db, `m${Date.now()}`, QUESTIONS);
  // The fixture's c2 is the one human comment; a second one on b.py.
  const c5 = await db.reviewComment.create({ data: { pullRequestId: fx.study.pullRequestId, codeChangeId: fx.study.files[1], externalId: "c5", path: "b.py", side: "RIGHT", line: 1, body: "comment c5", system: "human", author: "maria", position: 4 } });
  fx.study.comments.c5 = c5.id;
  await generateAssignments(lead(), fx.study.slug, [fx.accounts.ann1, fx.accounts.ann2]);
  for (const who of ["ann1", "ann2"] as const) assignment[who] = (await db.assignment.findFirstOrThrow({ where: { annotatorId: fx.accounts[who], studyId: fx.study.studyId } })).id;
});
afterAll(async () => {
  await (await sendQueue()).stop({ graceful: false, wait: true });
  await removeCommentQuestionsFixture(db, fx);
  await db.$disconnect();
});

const request = (who: "ann1" | "ann2", commentId: string, answers: Record<string, unknown>, baseVersion = 0): SaveRequest =>
  ({ kind: "commentAnswers", assignmentId: assignment[who], targetId: commentId, baseVersion, value: { answers, notes: {} } }) as SaveRequest;
const save = (who: "ann1" | "ann2", commentId: string, answers: Record<string, unknown>, baseVersion = 0) => saveAnnotation(asAccount(fx.accounts[who]), request(who, commentId, answers, baseVersion));

/** Each annotator's degrees, system comment by system comment: toward [c2, c5]. Scale none 0, partly 1, fully 2. */
const DEGREES = {
  ann1: { c1: ["none", "fully"], c3: ["none", "none"], c4: ["partly", "none"] },
  ann2: { c1: ["none", "partly"], c3: ["none", "none"], c4: ["fully", "none"] },
} as const;

describe("the matching question in the workspace and its saves", () => {
  test("the workspace marks the human comments; the question is missing on each system comment until every human comment has a degree", async () => {
    const data = await getWorkspace(fx.accounts.ann1, assignment.ann1);
    const part = data.commentQuestions!;
    expect(part.comments.filter((x) => x.human).map((x) => x.externalId).sort()).toEqual(["c2", "c5"]);
    expect(part.comments.filter((x) => !x.human).every((x) => x.human === undefined)).toBe(true);
    expect(part.questions.map((q) => q.kind)).toEqual(["binary", "match"]);
  });

  test("refused: matching a human comment, naming a comment that is not a human comment of the pull request, a degree off the scale", async () => {
    await expect(save("ann1", c("c2"), { matches: { [c("c5")]: "fully" } })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("asked only of a system's comment") });
    await expect(save("ann1", c("c1"), { matches: { [c("c3")]: "fully" } })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("not a human comment of this pull request") });
    await expect(save("ann1", c("c1"), { matches: { [fx.other.comments.c2]: "fully" } })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("not a human comment of this pull request") });
    await expect(save("ann1", c("c1"), { matches: { [c("c2")]: "maybe" } })).rejects.toMatchObject({ status: 400 });
    expect(await db.commentAnswers.count({ where: { annotatorId: fx.accounts.ann1 } })).toBe(0);
  });

  test("a partial matching is a draft: submit is refused naming the question; the rest completes it", async () => {
    const first = await save("ann1", c("c1"), { useful: true, matches: { [c("c2")]: "none" } });
    const refused = await submitAssignment(fx.accounts.ann1, assignment.ann1).catch((e: { status: number; details: { missing: { targetId: string; what: string[] }[] } }) => e);
    expect(refused).toMatchObject({ status: 422 });
    expect((refused as { details: { missing: { targetId: string; what: string[] }[] } }).details.missing.find((m) => m.targetId === c("c1"))?.what).toEqual(["matches"]);
    // The human comments are asked usefulness only.
    expect((refused as { details: { missing: { targetId: string; what: string[] }[] } }).details.missing.find((m) => m.targetId === c("c2"))?.what).toEqual(["useful"]);
    const data = await getWorkspace(fx.accounts.ann1, assignment.ann1);
    expect(data.commentQuestions!.answers[c("c1")].value.answers).toEqual({ useful: true, matches: { [c("c2")]: "none" } });
    await save("ann1", c("c1"), { useful: true, matches: { [c("c2")]: DEGREES.ann1.c1[0], [c("c5")]: DEGREES.ann1.c1[1] } }, first.version);
    // History keeps both versions (undo goes back through it).
    const history = await db.annotationHistory.findMany({ where: { annotationId: first.id! }, orderBy: { id: "asc" } });
    expect(history.map((h) => (h.newValue as { answers: { matches: Record<string, string> } }).answers.matches[c("c5")] ?? null)).toEqual([null, "fully"]);
  });

  test("two annotators match every pair; the agreement report computes on the six pairs as ordinal items (hand-computed)", async () => {
    for (const who of ["ann1", "ann2"] as const) {
      for (const [tool, [toC2, toC5]] of Object.entries(DEGREES[who])) {
        const stored = await db.commentAnswers.findFirst({ where: { annotatorId: fx.accounts[who], reviewCommentId: c(tool) } });
        await save(who, c(tool), { useful: true, matches: { [c("c2")]: toC2, [c("c5")]: toC5 } }, stored?.version ?? 0);
      }
      for (const human of ["c2", "c5"]) await save(who, c(human), { useful: true });
      await submitAssignment(fx.accounts[who], assignment[who]);
    }
    const report = await agreementReport(fx.study.studyId, { bootstrap: { nResamples: 0 } });
    const matches = report.tasks[0].questions.find((q) => q.question === "matches")!;
    expect(matches).toMatchObject({ level: "ordinal", scale: ["none", "partly", "fully"], counts: { items: 6, ratings: 12, raters: 2 } });
    const coefficient = (key: string) => matches.coefficients.find((x) => x.key === key)!.value!;
    // Pairs (c1,c2) (c1,c5) (c3,c2) (c3,c5) (c4,c2) (c4,c5): ann1 0 2 0 0 1 0, ann2 0 1 0 0 2 0.
    // Cohen's κ, quadratic weights (1, 0.75, 0): p_o = (4 + 0.75 + 0.75) / 6 = 33/36; both raters'
    // marginals (4, 1, 1)/6, p_e = (16 + 3 + 3 + 1 + 0.75 + 0.75 + 1)/36 = 25.5/36; κ = 7.5/10.5 = 5/7.
    expect(coefficient("cohen")).toBeCloseTo(5 / 7, 10);
    // Krippendorff's ordinal α: n = 12 values, n_none 8, n_partly 2, n_fully 2; o(partly, fully) = o(fully, partly) = 2.
    // δ² ordinal: (partly, fully) (2 + 2 − 2)² = 4, (none, partly) (8 + 2 − 5)² = 25, (none, fully) (12 − 5)² = 49.
    // α = 1 − (n − 1) Σ o δ² / Σ n_c n_k δ² = 1 − 11 · 16 / (2 · (8·2·25 + 8·2·49 + 2·2·4)) = 1 − 176/2400.
    expect(coefficient("alpha")).toBeCloseTo(1 - 176 / 2400, 10);
    // The comment questions stay per comment: useful on the five comments.
    expect(report.tasks[0].questions.find((q) => q.question === "useful")!.counts).toMatchObject({ items: 5, ratings: 10 });
  });

  test("consensus per pair: unanimous pairs agree, the two split pairs have none until the lead decides one in adjudication", async () => {
    const study = await requireStudy({ id: fx.study.studyId });
    const consensus = await taskConsensus(db, study, "COMMENT_QUESTIONS");
    expect(consensus.get(pairItemId(c("c3"), c("c5")))!.get("matches")).toEqual({ value: "none", source: "unanimous" });
    expect(consensus.get(pairItemId(c("c1"), c("c5")))?.get("matches")).toBeUndefined();
    const queue = await adjudicationQueue(lead(), fx.study.slug, "COMMENT_QUESTIONS", "matches");
    expect(queue.open.map((e) => e.item.id).sort()).toEqual([pairItemId(c("c1"), c("c5")), pairItemId(c("c4"), c("c2"))].sort());
    const item = await adjudicationItem(lead(), fx.study.slug, "COMMENT_QUESTIONS", pairItemId(c("c1"), c("c5")));
    expect(item.item).toMatchObject({ kind: "reviewComment", system: "claude-code", label: "claude-code on b.py:2 ~ human on b.py:1" });
    expect(item.item.text).toContain("comment c5");
    expect(item.annotations.map((a) => a.values.matches).sort()).toEqual(["fully", "partly"]);
    await saveConsensus(lead(), { slug: fx.study.slug, task: "COMMENT_QUESTIONS", itemId: pairItemId(c("c1"), c("c5")), question: "matches", value: "partly", reason: "only the second half", baseVersion: 0, gold: false });
    expect((await taskConsensus(db, study, "COMMENT_QUESTIONS")).get(pairItemId(c("c1"), c("c5")))!.get("matches")).toMatchObject({ value: "partly", source: "adjudicated" });
    // A pair that is not one: two system comments.
    await expect(adjudicationItem(lead(), fx.study.slug, "COMMENT_QUESTIONS", pairItemId(c("c1"), c("c3")))).rejects.toMatchObject({ status: 404 });
  });
});

describe("the tools report on the human matching", () => {
  test("recall, precision and useful unmatched comments per system from the consensus; the location matcher scored against it", async () => {
    const report = await studyToolsReport(lead(), fx.study.slug);
    // Consensus: (c1,c5) partly (the lead's), (c4,c2) split, the other four none: five decided, one match.
    expect(report.humanMatching).toMatchObject({ pairs: 6, decided: 5, fully: 0, partly: 1 });
    const human = new Map(report.humanMatching!.systems.map((r) => [r.system, r]));
    // claude-code: c1 matches c5; c4 matches nothing decided. codex: c3 matches nothing.
    expect(human.get("claude-code")).toMatchObject({ comments: 2, matchingComments: 1, humanComments: 2, matchedHumanComments: 1, recall: { value: 0.5 }, precision: { value: 0.5 }, usefulDecided: 2, useful: 2, usefulUnmatched: 1 });
    expect(human.get("codex")).toMatchObject({ comments: 1, matchingComments: 0, matchedHumanComments: 0, recall: { value: 0 }, precision: { value: 0 }, usefulUnmatched: 1 });
    // The location matcher (k = 3): c1 (b.py:2) with c5 (b.py:1), c4 (a.py:1) with c2 (a.py:2); c3 is on the whole file.
    expect(report.matching).toMatchObject({ matcher: { kind: "location", k: 3, signature: "matcher:location|k:3|side:same|range:one-side|whole-file:whole-file|impl:1" }, pairs: 2 });
    expect(report.matching!.scores).toEqual([
      { system: "claude-code", found: 2, judged: 1, agreed: 1, precision: 0.5, recall: 1 },
      { system: "codex", found: 0, judged: 0, agreed: 0, precision: null, recall: null, reason: "the matcher found no pair; the human matching has no pair" },
    ]);
    // No test outcomes: no mean s_i, so no correlation, and the report says why.
    expect(report.usefulnessAgainstScores).toMatchObject({ n: 0, rho: null });
    expect(report.notes).toContain("The correlation of the systems' useful share with their mean s_i is undefined: needs at least 2 pairs, got 0.");
  });
});

describe("matcher runs: the location matcher's runs stored with their signature and pairs", () => {
  const pairsOf = async (runId: string) => (await db.matcherMatch.findMany({ where: { runId } })).map((m) => `${m.reviewCommentId}>${m.humanCommentId}`).sort();
  test("a run from the command line and one queued for the worker store their pairs; the report reads the newest run of each signature from them, scored against the annotators' matching", async () => {
    // k = 1: c1 (b.py:2) with c5 (b.py:1), c4 (a.py:1) with c2 (a.py:2), each one line apart; c3 is on the whole file.
    const k1 = await runLocationMatcher(lead(), fx.study.slug, 1);
    expect(k1).toMatchObject({ studyId: fx.study.studyId, matcher: "location", signature: "matcher:location|k:1|side:same|range:one-side|whole-file:whole-file|impl:1", params: { k: 1 }, status: "DONE", pairs: 2, error: null });
    expect(await pairsOf(k1.id)).toEqual([`${c("c1")}>${c("c5")}`, `${c("c4")}>${c("c2")}`].sort());
    // k = 0 from the tools page: queued, computed by the worker; no ranges overlap, so no pair.
    const queued = await queueLocationMatcher(lead(), { slug: fx.study.slug, k: 0 });
    expect(queued).toMatchObject({ status: "QUEUED", signature: "matcher:location|k:0|side:same|range:one-side|whole-file:whole-file|impl:1", createdById: fx.accounts.lead });
    const boss = await startQueue(process.env.DATABASE_URL!, { supervise: false });
    try {
      expect(await boss.getJobById(MATCHER_QUEUE, jobIdOf(`matcher-run:${queued.id}`))).toMatchObject({ data: { runId: queued.id } });
      await workMatcherRuns(boss);
      const deadline = Date.now() + 30_000;
      while ((await db.matcherRun.findUniqueOrThrow({ where: { id: queued.id } })).status !== "DONE" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await boss.stop({ graceful: true, wait: true });
    }
    expect(await db.matcherRun.findUniqueOrThrow({ where: { id: queued.id } })).toMatchObject({ status: "DONE", pairs: 0 });
    // Re-run k = 1 after a pair's human comment moved away (b.py:40): the new run has one pair, the first keeps its two.
    await db.reviewComment.update({ where: { id: c("c5") }, data: { line: 40 } });
    const again = await runLocationMatcher(lead(), fx.study.slug, 1);
    await db.reviewComment.update({ where: { id: c("c5") }, data: { line: 1 } });
    expect(again).toMatchObject({ signature: k1.signature, pairs: 1 });
    expect(await pairsOf(again.id)).toEqual([`${c("c4")}>${c("c2")}`]);
    expect(await pairsOf(k1.id)).toHaveLength(2);
    expect((await ledStudyMatcherRuns(lead(), fx.study.slug)).map((r) => r.id)).toEqual([again.id, queued.id, k1.id]);
    // The report: the newest run of each signature (k = 1's second run, then k = 0), from their stored pairs, although the comments moved back since.
    const report = await studyToolsReport(lead(), fx.study.slug);
    expect(report.matcherRuns.map((m) => [m.run.id, m.matcher.k, m.pairs])).toEqual([
      [again.id, 1, 1],
      [queued.id, 0, 0],
    ]);
    // Against the annotators' matching (one pair: c1 with c5, partly): the stored pair c4>c2 is none of it.
    expect(report.matcherRuns[0].scores).toEqual([
      { system: "claude-code", found: 1, judged: 1, agreed: 0, precision: 0, recall: 0 },
      { system: "codex", found: 0, judged: 0, agreed: 0, precision: null, recall: null, reason: "the matcher found no pair; the human matching has no pair" },
    ]);
    expect(report.matcherRuns[1].scores![0]).toEqual({ system: "claude-code", found: 0, judged: 1, agreed: 0, precision: null, recall: 0, reason: "the matcher found no pair" });
    const claude = report.matcherRuns[0].systems.find((s) => s.system === "claude-code")!;
    expect(claude).toMatchObject({ comments: 2, matchingComments: 1, humanComments: 2, matchedHumanComments: 1 });
  });
  test("refused: another study's lead (404, nothing stored); k off its range", async () => {
    const before = await db.matcherRun.count();
    const other = { id: fx.accounts.otherLead, role: "LEAD" as const };
    await expect(runLocationMatcher(other, fx.study.slug, 1)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(queueLocationMatcher(other, { slug: fx.study.slug, k: 1 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(ledStudyMatcherRuns(other, fx.study.slug)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(startMatcherRunSchema.safeParse({ slug: fx.study.slug, k: -1 }).success).toBe(false);
    expect(startMatcherRunSchema.safeParse({ slug: fx.study.slug, k: "1.5" }).success).toBe(false);
    expect(await db.matcherRun.count()).toBe(before);
  });
});

describe("the exports carry the matching", () => {
  test("long: a row per annotator and human comment, question matches:HUMAN_ID, with the pair's consensus (unanimous or the lead's; blank when split)", async () => {
    const rows = (parse(await exported("long-csv"), { columns: true }) as Record<string, string>[]).filter((r) => r.question.startsWith("matches:"));
    const seen = rows.map((r) => [r.item, r.question, r.annotatorId === fx.accounts.ann1 ? "ann1" : "ann2", r.value, r.consensus].join(" ")).sort();
    expect(seen).toEqual(
      [
        "c1 matches:c2 ann1 none none",
        "c1 matches:c2 ann2 none none",
        "c1 matches:c5 ann1 fully partly",
        "c1 matches:c5 ann2 partly partly",
        "c3 matches:c2 ann1 none none",
        "c3 matches:c2 ann2 none none",
        "c3 matches:c5 ann1 none none",
        "c3 matches:c5 ann2 none none",
        "c4 matches:c2 ann1 partly ",
        "c4 matches:c2 ann2 fully ",
        "c4 matches:c5 ann1 none none",
        "c4 matches:c5 ann2 none none",
      ].sort(),
    );
    expect(rows.every((r) => r.task === "COMMENT_QUESTIONS" && r.itemKind === "reviewComment")).toBe(true);
  });

  test("jsonl: each system comment's answers hold the degrees by human comment id, its consensus the pairs' decided ones; the import schema takes the lines", async () => {
    const lines = (await exported("jsonl")).trim().split("\n").map((l) => JSON.parse(l) as { reviewComments: { id: string; answers: { annotatorId: string; answers: Record<string, unknown> }[]; consensus: Record<string, unknown> }[] });
    for (const line of lines) expect(codeChangeLineSchema.safeParse(line).error).toBeUndefined();
    const comments = new Map(lines.flatMap((l) => l.reviewComments.map((c) => [c.id, c] as const)));
    expect(comments.get("c1")!.answers.find((a) => a.annotatorId === fx.accounts.ann1)!.answers.matches).toEqual({ c2: "none", c5: "fully" });
    expect(comments.get("c1")!.consensus.matches).toEqual({ c2: "none", c5: "partly" });
    expect(comments.get("c4")!.consensus.matches).toEqual({ c5: "none" });
    expect(comments.get("c2")!.consensus.matches).toBeNull();
  });
});

describe("the LLM matcher: a judge run on the matching question", () => {
  test("answers every pair, stored in the judge's comment answers; scored against the human matching, left out of its consensus", async () => {
    const fake = await startFakeLlm();
    const tag = Date.now();
    try {
      // The judge: c1 fully raises c5's concern, c4 partly c2's, nothing else.
      fake.handle((r) => {
        const text = userText(r);
        const answer = text.includes("comment c1") && text.includes("comment c5") ? "fully" : text.includes("comment c4") && text.includes("comment c2") ? "partly" : "none";
        return { content: JSON.stringify({ answer, reason: "because" }), usage: { prompt_tokens: 10, completion_tokens: 5 } };
      });
      const { run } = await runJudge({ study: fx.study.slug, task: "COMMENT_QUESTIONS", question: "matches", name: `matcher-${tag}`, llm: { url: fake.url, model: "gpt-4o-mini", backoffMs: 1, maxBackoffMs: 5_000 } });
      expect(run.error).toBeNull();
      expect(run).toMatchObject({ status: "DONE", total: 6, done: 6 });
      const judgeId = (await db.account.findUniqueOrThrow({ where: { email: `judge:matcher-${tag}` } })).id;
      const stored = await db.commentAnswers.findFirstOrThrow({ where: { annotatorId: judgeId, reviewCommentId: c("c1") } });
      expect(stored.answers).toEqual({ matches: { [c("c2")]: "none", [c("c5")]: "fully" } });

      const report = await studyToolsReport(lead(), fx.study.slug);
      // Not opted in: the human matching is the annotators' alone, as before.
      expect(report.humanMatching).toMatchObject({ decided: 5, partly: 1, fully: 0 });
      const [llm] = report.llmMatching;
      expect(llm.matcher).toMatchObject({ kind: "llm", judge: `judge:matcher-${tag}`, signature: expect.stringContaining("model:gpt-4o-mini|prompt:") });
      expect(llm.pairs).toBe(2);
      // Against the human matching ((c1,c5) only): claude-code found (c1,c5) and (c4,c2): precision 1/2, recall 1/1.
      expect(llm.scores).toEqual([
        { system: "claude-code", found: 2, judged: 1, agreed: 1, precision: 0.5, recall: 1 },
        { system: "codex", found: 0, judged: 0, agreed: 0, precision: null, recall: null, reason: "the matcher found no pair; the human matching has no pair" },
      ]);
      expect(llm.systems.find((r) => r.system === "claude-code")).toMatchObject({ matchingComments: 2, matchedHumanComments: 2, recall: { value: 1 }, precision: { value: 1 } });
    } finally {
      await fake.close();
      await db.account.deleteMany({ where: { kind: "JUDGE", email: { endsWith: `-${tag}` } } });
    }
  });
});
