import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { addAccount } from "@/lib/data/accounts";
import { requireLedPullRequest } from "@/lib/data/pull-requests";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { createClient } from "@/lib/db/client";
import { applyFileDiff, parseUnifiedDiff } from "@/lib/diff";
import type { TaskType } from "@/lib/generated/prisma/client";
import { DEMO_STUDY, planDemo, TASK_ORDER } from "@/lib/seed";
import { seedDemo, type SeedDemoResult } from "@/lib/data/demo-study";

const db = createClient(inject("databaseUrl"));
const lineCount = (text: string) => text.split("\n").length - 1;

/** Per task type: annotator id -> code change id -> the annotation values that task produced. */
async function annotationsByTask(studyId: string): Promise<Record<TaskType, Map<string, Map<string, string[]>>>> {
  const onReview = { review: { codeChange: { studyId } } };
  const group = (rows: Array<{ annotatorId: string; codeChangeId: string; target: string; value: unknown }>) => {
    const byAnnotator = new Map<string, Map<string, string[]>>();
    for (const row of [...rows].sort((a, b) => a.target.localeCompare(b.target))) {
      const byChange = byAnnotator.get(row.annotatorId) ?? byAnnotator.set(row.annotatorId, new Map()).get(row.annotatorId)!;
      byChange.set(row.codeChangeId, [...(byChange.get(row.codeChangeId) ?? []), `${row.target}=${JSON.stringify(row.value)}`]);
    }
    return byAnnotator;
  };
  const review = { review: { select: { codeChangeId: true, externalId: true } } } as const;
  const [claims, ratings, grades, filters] = await Promise.all([
    db.claimJudgement.findMany({ where: { pseudoReference: { codeChange: { studyId } } }, include: { pseudoReference: { select: { codeChangeId: true, externalId: true } } } }),
    db.reviewRating.findMany({ where: onReview, include: review }),
    db.referenceGrade.findMany({ where: onReview, include: review }),
    db.commentFilteringLabel.findMany({ where: onReview, include: review }),
  ]);
  return {
    CLAIM_VERIFICATION: group(claims.map((c) => ({ annotatorId: c.annotatorId, codeChangeId: c.pseudoReference.codeChangeId, target: c.pseudoReference.externalId, value: c.code }))),
    REVIEW_RATING: group(ratings.map((r) => ({ annotatorId: r.annotatorId, codeChangeId: r.review.codeChangeId, target: r.review.externalId, value: r.scores }))),
    REFERENCE_GRADING: group(grades.map((g) => ({ annotatorId: g.annotatorId, codeChangeId: g.review.codeChangeId, target: g.review.externalId, value: g.grade }))),
    COMMENT_FILTERING: group(filters.map((f) => ({ annotatorId: f.annotatorId, codeChangeId: f.review.codeChangeId, target: f.review.externalId, value: f.highQuality }))),
    COMMENT_QUESTIONS: new Map(),
  };
}

describe("seedDemo", () => {
  let first: SeedDemoResult;
  let leadId: string;
  let firstLeadId: string;
  let seedMs: number;

  beforeAll(async () => {
    // The integration database is shared by all test files of a run: start from no demo study.
    await db.study.deleteMany({ where: { slug: DEMO_STUDY.slug } });
    leadId = (await addAccount({ email: `seed-lead-${Date.now()}@test.local`, role: "LEAD", password: "lead-password" }, db)).id;
    // The study goes to the oldest lead: this one, unless a file that ran before left a lead behind.
    firstLeadId = (await db.account.findFirstOrThrow({ where: { role: "LEAD" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).id;
    const started = performance.now();
    first = await seedDemo(db);
    seedMs = performance.now() - started;
  });

  afterAll(async () => {
    // Leave the shared database as other files expect it (e.g. no LEAD before "first start").
    // The demo annotators stay: their history rows are append-only and reference them.
    await db.study.deleteMany({ where: { slug: DEMO_STUDY.slug } });
    await db.account.delete({ where: { id: leadId } });
    await db.$disconnect();
  });

  test("the pull request is an item with its files and review comments by a human reviewer and two tools at real lines", async () => {
    const pr = await requireLedPullRequest(COMMAND_LINE, "demo", "shop-api#118", db);
    expect(pr.url).toBe("https://github.com/acme/shop-api/pull/118");
    expect(pr.files.map((f) => [f.path, f.status, f.oldPath])).toEqual([
      ["src/routes/orders.js", "MODIFIED", "src/routes/orders.js"],
      ["src/db/orders.js", "MODIFIED", "src/db/orders.js"],
      ["test/orders.test.js", "MODIFIED", "test/orders.test.js"],
    ]);
    expect(pr.reviews.map((r) => [r.system, r.commentIds.length])).toEqual([["human", 3], ["coderabbit", 2], ["claude-code (claude-sonnet-4.6)", 2]]);
    const fileOf = new Map(pr.files.map((f) => [f.codeChangeId, f]));
    // Each comment's lines, on its side, hold the code it speaks of.
    const code = (id: string) => {
      const c = pr.comments.find((comment) => comment.externalId === id)!;
      const file = fileOf.get(c.codeChangeId)!;
      const lines = (c.side === "LEFT" ? file.oldFile : file.newFile).split("\n");
      return c.line === null ? null : lines.slice((c.startLine ?? c.line) - 1, c.line).join("\n");
    };
    expect(code("1180001")).toContain("JSON.parse(Buffer.from(cursor");
    expect(code("1180003")).toMatch(/^\s*ORDER BY created_at DESC, id DESC\n\s*LIMIT \$2`,$/);
    expect(code("1180004")).toMatch(/Number\.parseInt[\s\S]*Math\.min\(limit, MAX_LIMIT\)/);
    expect(code("1180005")).toBeNull();
    expect(code("1180007")).toContain("listOrders({ customerId: req.user.customerId })");
    const reply = pr.comments.find((c) => c.externalId === "1180002")!;
    expect(pr.comments.find((c) => c.id === reply.inReplyToId)?.externalId).toBe("1180001");
  });

  test("creates the study with every task type, the codebook and the expected counts", async () => {
    expect(first.created).toBe(true);
    console.info(`seedDemo took ${Math.round(seedMs)} ms; counts ${JSON.stringify(first.counts)}`);
    const study = await db.study.findUniqueOrThrow({ where: { slug: "demo" } });
    expect(study.id).toBe(first.studyId);
    expect(study.tasks.sort()).toEqual([...TASK_ORDER].sort());
    expect(study.guidelines).toMatch(/Unverifiable/);
    expect(study.guidelines).toMatch(/Over-generalization/);
    expect(study.guidelines).toMatch(/Comprehensiveness/);
    expect(study.guidelines).toMatch(/5 \(perfect\)/);
    expect(study.guidelines).toMatch(/actionable|act on/);

    const { counts } = first;
    expect(counts.codeChanges).toBeGreaterThanOrEqual(6);
    expect(counts.languages).toEqual(["java", "javascript", "python"]);
    expect(counts.pullRequests).toBe(1);
    expect(counts.reviewComments).toBe(7);
    for (const kind of ["CLAIM", "IMPLICATION", "SMELL", "ANNOTATOR_ADDED"] as const) expect(counts.pseudoReferences[kind]).toBeGreaterThan(0);
    expect(counts.referenceReviews).toBe(counts.codeChanges);
    expect(counts.members).toMatchObject({ ANNOTATOR: 2 });
    expect(counts.members.LEAD).toBeGreaterThanOrEqual(1);
    expect(counts.assignments.DONE).toBeGreaterThan(0);
    expect(counts.assignments.PENDING).toBeGreaterThan(0);
    const annotations = counts.claimJudgements + counts.reviewRatings + counts.referenceGrades + counts.commentFilteringLabels + counts.pseudoReferences.ANNOTATOR_ADDED;
    expect(counts.historyRows).toBe(annotations);
  });

  test("one pull request holds three of the changes", async () => {
    const pr = await db.pullRequest.findFirstOrThrow({ where: { studyId: first.studyId }, include: { codeChanges: { orderBy: { position: "asc" } } } });
    expect(pr.codeChanges).toHaveLength(3);
    expect(new Set(pr.codeChanges.map((c) => c.filePath)).size).toBe(3);
  });

  test("every change has real files, a diff that turns the old file into the new one, 4-8 pseudo-references and 5-10 reviews with one human reference", async () => {
    const changes = await db.codeChange.findMany({ where: { studyId: first.studyId }, include: { pseudoReferences: true, reviews: true } });
    for (const change of changes) {
      for (const file of [change.oldFile, change.newFile]) expect(lineCount(file)).toBeGreaterThanOrEqual(20);
      for (const file of [change.oldFile, change.newFile]) expect(lineCount(file)).toBeLessThanOrEqual(80);
      const files = parseUnifiedDiff(change.diff);
      expect(files.map((f) => f.newPath)).toEqual([change.filePath]);
      expect(applyFileDiff(change.oldFile, files[0])).toBe(change.newFile);
      const generated = change.pseudoReferences.filter((ref) => ref.kind !== "ANNOTATOR_ADDED");
      expect(generated.length).toBeGreaterThanOrEqual(4);
      expect(generated.length).toBeLessThanOrEqual(8);
      expect(new Set(generated.map((ref) => ref.kind))).toEqual(new Set(["CLAIM", "IMPLICATION", "SMELL"]));
      expect(change.reviews.length).toBeGreaterThanOrEqual(5);
      expect(change.reviews.length).toBeLessThanOrEqual(10);
      expect(change.reviews.filter((r) => r.isReference).map((r) => r.system)).toEqual(["human"]);
    }
    const sources = await db.pseudoReference.findMany({ where: { codeChange: { studyId: first.studyId } }, distinct: ["source"], select: { source: true } });
    expect(sources.map((s) => s.source)).toEqual(expect.arrayContaining(["gpt-4o", "pylint", "pmd", "eslint", "annotator"]));
  });

  test("annotator accounts have hashed passwords; annotators and existing leads are members", async () => {
    for (const [email, name] of [["ann1@demo.local", "Annotator One"], ["ann2@demo.local", undefined]] as const) {
      const account = await db.account.findUniqueOrThrow({ where: { email } });
      expect(account).toMatchObject({ role: "ANNOTATOR", active: true });
      if (name) expect(account.name).toBe(name);
      expect(account.passwordHash).not.toBe(DEMO_STUDY.annotatorPassword);
      expect(await verifyPassword(DEMO_STUDY.annotatorPassword, account.passwordHash ?? "")).toBe(true);
      expect(await db.studyMember.findUnique({ where: { studyId_accountId: { studyId: first.studyId, accountId: account.id } } })).toMatchObject({ role: "ANNOTATOR" });
    }
    expect(await db.studyMember.findUnique({ where: { studyId_accountId: { studyId: first.studyId, accountId: firstLeadId } } })).toMatchObject({ role: "LEAD" });
    expect(await db.study.findUniqueOrThrow({ where: { id: first.studyId }, select: { ownerId: true } })).toEqual({ ownerId: firstLeadId });
  });

  test("every annotator has every task on every change, in a queue with stage 1 of an item before its stage 2", async () => {
    const members = await db.studyMember.findMany({ where: { studyId: first.studyId, role: "ANNOTATOR" } });
    const assignments = await db.assignment.findMany({ where: { studyId: first.studyId }, orderBy: { position: "asc" } });
    expect(assignments).toHaveLength(members.length * first.counts.codeChanges * TASK_ORDER.length);
    for (const { accountId } of members) {
      const queue = assignments.filter((a) => a.annotatorId === accountId);
      expect(queue.map((a) => a.position)).toEqual(queue.map((_, i) => i));
      const positionOf = (codeChangeId: string, task: TaskType) => queue.find((a) => a.codeChangeId === codeChangeId && a.task === task)!.position;
      for (const a of queue.filter((x) => x.task === "REVIEW_RATING")) expect(positionOf(a.codeChangeId, "CLAIM_VERIFICATION")).toBeLessThan(a.position);
    }
    const orders = members.map(({ accountId }) => assignments.filter((a) => a.annotatorId === accountId && a.task === "CLAIM_VERIFICATION").map((a) => a.codeChangeId).join());
    expect(new Set(orders).size).toBe(2);
    expect(new Set(assignments.map((a) => a.status))).toEqual(new Set(["DONE", "IN_PROGRESS", "PENDING", "SKIPPED"]));
    for (const a of assignments) {
      if (a.status === "PENDING") expect(a).toMatchObject({ timeSpentMs: 0, startedAt: null, completedAt: null });
      if (a.status === "DONE") expect(a.completedAt!.getTime() - a.startedAt!.getTime()).toBe(a.timeSpentMs);
      if (a.status === "SKIPPED") expect(a.skipReason).toBeTruthy();
    }
  });

  test("the queue order is reproducible", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const key = (plan: ReturnType<typeof planDemo>) => plan.assignments.map((a) => `${a.annotator}:${a.position}:${a.change.externalId}:${a.task}:${a.status}:${a.timeSpentMs}`);
    expect(key(planDemo(DEMO_STUDY, now))).toEqual(key(planDemo(DEMO_STUDY, now)));
  });

  test("DONE assignments are fully annotated; for each task type at least 3 changes are done by both annotators, with some disagreement", async () => {
    const byTask = await annotationsByTask(first.studyId);
    const done = await db.assignment.findMany({ where: { studyId: first.studyId, status: "DONE" } });
    const annotators = [...new Set(done.map((a) => a.annotatorId))];
    expect(annotators).toHaveLength(2);
    for (const task of TASK_ORDER) {
      const bothDone = [...new Set(done.filter((a) => a.task === task).map((a) => a.codeChangeId))].filter((codeChangeId) =>
        annotators.every((accountId) => done.some((a) => a.task === task && a.codeChangeId === codeChangeId && a.annotatorId === accountId)),
      );
      expect(bothDone.length, task).toBeGreaterThanOrEqual(3);
      const [a, b] = annotators.map((accountId) => bothDone.map((codeChangeId) => byTask[task].get(accountId)?.get(codeChangeId) ?? []));
      for (let i = 0; i < bothDone.length; i++) expect(a[i].map((v) => v.split("=")[0]), task).toEqual(b[i].map((v) => v.split("=")[0]));
      expect(a.flat(), task).not.toEqual(b.flat());
    }
  });

  test("ratings follow CRScore Table 7 and link only the annotator's own stage-2 pseudo-references", async () => {
    const ratings = await db.reviewRating.findMany({
      where: { review: { codeChange: { studyId: first.studyId } } },
      include: { links: { include: { pseudoReference: { include: { judgements: true } } } } },
    });
    expect(ratings.some((r) => r.links.some((l) => l.partial))).toBe(true);
    for (const rating of ratings) {
      const { conciseness, comprehensiveness, relevance } = rating.scores as Record<string, number>;
      for (const score of [conciseness, comprehensiveness, relevance]) expect([1, 2, 3, 4, 5]).toContain(score);
      expect(relevance).toBeGreaterThanOrEqual(Math.min(conciseness, comprehensiveness));
      expect(relevance).toBeLessThanOrEqual(Math.max(conciseness, comprehensiveness));
      for (const { pseudoReference: ref } of rating.links) {
        if (ref.kind === "ANNOTATOR_ADDED") expect(ref.addedById).toBe(rating.annotatorId);
        if (ref.kind !== "CLAIM" && ref.kind !== "IMPLICATION") continue;
        const own = ref.judgements.find((j) => j.annotatorId === rating.annotatorId);
        expect(own, ref.text).toBeDefined();
        expect(["INCORRECT", "UNVERIFIABLE", "INCOMPLETE"]).not.toContain(own!.code);
        expect(own!.necessary).not.toBe(false);
      }
    }
  });

  test("claim judgements use error types and notes; grades are 1-5; an added claim corrects an incorrect one", async () => {
    const judgements = await db.claimJudgement.findMany({ where: { pseudoReference: { codeChange: { studyId: first.studyId } } }, include: { pseudoReference: true } });
    expect(new Set(judgements.map((j) => j.code))).toEqual(new Set(["CORRECT", "INCORRECT", "UNVERIFIABLE", "AMBIGUOUS", "INCOMPLETE"]));
    expect(judgements.every((j) => j.pseudoReference.kind !== "SMELL")).toBe(true);
    expect(judgements.filter((j) => j.code === "INCORRECT").every((j) => j.errorType !== null)).toBe(true);
    expect(judgements.some((j) => j.necessary === false && j.note !== "")).toBe(true);
    expect(judgements.every((j) => (j.timeSpentMs ?? 0) > 0)).toBe(true);
    const grades = await db.referenceGrade.findMany({ where: { review: { codeChange: { studyId: first.studyId } } }, include: { review: true } });
    expect(grades.every((g) => g.grade >= 1 && g.grade <= 5 && !g.review.isReference)).toBe(true);
    const corrections = await db.pseudoReference.findMany({ where: { codeChange: { studyId: first.studyId }, correctsId: { not: null } }, include: { corrects: { include: { judgements: true } } } });
    expect(corrections.length).toBeGreaterThan(0);
    for (const c of corrections) expect(c.corrects!.judgements.find((j) => j.annotatorId === c.addedById)?.code).toBe("INCORRECT");
  });

  test("every annotation has one CREATE history row by its annotator", async () => {
    const rows = await db.annotationHistory.findMany({ where: { accountId: { not: null }, action: "CREATE", kind: { in: ["CLAIM_JUDGEMENT", "REVIEW_RATING", "REFERENCE_GRADE", "COMMENT_FILTERING_LABEL", "PSEUDO_REFERENCE"] } } });
    const byId = new Map(rows.map((r) => [r.annotationId, r]));
    const grades = await db.referenceGrade.findMany({ where: { review: { codeChange: { studyId: first.studyId } } } });
    for (const grade of grades) {
      expect(byId.get(grade.id)).toMatchObject({ kind: "REFERENCE_GRADE", accountId: grade.annotatorId, baseVersion: 0, newValue: { grade: grade.grade, comment: "" } });
    }
    const ratings = await db.reviewRating.findMany({ where: { review: { codeChange: { studyId: first.studyId } } }, include: { links: true } });
    for (const rating of ratings) {
      const logged = byId.get(rating.id)!.newValue as { scores: unknown; links: unknown[] };
      expect(logged.scores).toEqual(rating.scores);
      expect(logged.links).toHaveLength(rating.links.length);
    }
  });

  test("a second call changes nothing and reports created: false", async () => {
    const accounts = await db.account.count();
    const second = await seedDemo(db);
    expect(second).toEqual({ ...first, created: false });
    expect(await db.account.count()).toBe(accounts);
    expect(await db.study.count({ where: { slug: "demo" } })).toBe(1);
  });

  test("two concurrent seeds create one study; the other reports created: false", async () => {
    await db.study.deleteMany({ where: { slug: "demo" } });
    const results = await Promise.all([seedDemo(db), seedDemo(db)]);
    expect(results.map((r) => r.created).sort()).toEqual([false, true]);
    expect(results[0].studyId).toBe(results[1].studyId);
    expect(await db.study.count({ where: { slug: "demo" } })).toBe(1);
  });
});
