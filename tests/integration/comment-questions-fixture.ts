/** Pull-request studies for the comment questions tests: two files per pull request and review comments by a human and two tools, written straight through Prisma. */
import type { PrismaClient } from "@/lib/db/client";
import type { CommentQuestionInput } from "@/lib/annotation/comment-questions";
import { unifiedDiff } from "@/lib/diff";

export interface PullRequestFixture {
  studyId: string;
  slug: string;
  pullRequestId: string;
  /** The pull request's files in order: the first holds the assignments. */
  files: string[];
  /** By external id. */
  comments: Record<string, string>;
}

export interface CommentQuestionsFixture {
  accounts: { ann1: string; ann2: string; ann3: string; lead: string; otherLead: string };
  /** The study annotated, and another study led by another lead (ann3 annotates there). */
  study: PullRequestFixture;
  other: PullRequestFixture;
}

/** A comment: external id, file index, line (null: whole file), system, and optionally the comment it answers and a linked test. */
type CommentSpec = [externalId: string, file: number, line: number | null, system: string, options?: { replyTo?: string; test?: string }];

const COMMENTS: CommentSpec[] = [
  ["c1", 1, 2, "claude-code"],
  ["c2", 0, 2, "human", { test: "def test_f():\n    assert f(1) == 2\n" }],
  ["c3", 0, null, "codex"],
  ["c4", 0, 1, "claude-code", { replyTo: "c2" }],
];

async function pullRequestStudy(db: PrismaClient, tag: string, ownerId: string, questions?: readonly CommentQuestionInput[]): Promise<PullRequestFixture> {
  const study = await db.study.create({
    data: { slug: `prq-${tag}`, name: `PR study ${tag}`, ownerId: ownerId, tasks: ["COMMENT_QUESTIONS"], annotatorsPerItem: 2, hideSystemNames: true, assignmentSeed: 5, ...(questions ? { commentQuestions: questions as object[] } : {}) },
  });
  const pr = await db.pullRequest.create({ data: { studyId: study.id, externalId: "pr-1", repository: "acme/app", title: "Fix f", headSha: "h".repeat(40), baseSha: "b".repeat(40) } });
  const files: string[] = [];
  for (const [n, path] of ["a.py", "b.py"].entries()) {
    const oldFile = "def f(x):\n    return x\n";
    const newFile = `def f(x):\n    return x + ${n + 1}\n`;
    const change = await db.codeChange.create({ data: { studyId: study.id, pullRequestId: pr.id, externalId: `pr-1:${path}`, filePath: path, status: "MODIFIED", language: "python", diff: unifiedDiff(oldFile, newFile, { path }), oldFile, newFile, position: n } });
    files.push(change.id);
  }
  const comments: Record<string, string> = {};
  for (const [position, [externalId, file, line, system, options]] of COMMENTS.entries()) {
    const row = await db.reviewComment.create({
      data: {
        pullRequestId: pr.id,
        codeChangeId: files[file],
        externalId,
        path: file === 0 ? "a.py" : "b.py",
        side: line === null ? null : "RIGHT",
        line,
        body: `comment ${externalId}`,
        system,
        author: `${system}-bot`,
        position,
        inReplyToId: options?.replyTo ? comments[options.replyTo] : null,
        ...(options?.test ? { testPath: "tests/test_f.py", testText: options.test } : {}),
      },
    });
    comments[externalId] = row.id;
  }
  return { studyId: study.id, slug: study.slug, pullRequestId: pr.id, files, comments };
}

export async function createCommentQuestionsFixture(db: PrismaClient, tag: string, questions?: readonly CommentQuestionInput[]): Promise<CommentQuestionsFixture> {
  const account = (name: string) => db.account.create({ data: { email: `${name}-${tag}@test.local`, name: `${name} ${tag}`, role: "ANNOTATOR" } });
  // Leads with the annotator role, as in annotation-fixture.ts: the data layer takes the deciding account as given.
  const [ann1, ann2, ann3, lead, otherLead] = await Promise.all([account("ann1"), account("ann2"), account("ann3"), account("lead"), account("otherlead")]);
  const study = await pullRequestStudy(db, tag, lead.id, questions);
  const other = await pullRequestStudy(db, `${tag}-other`, otherLead.id, questions);
  return { accounts: { ann1: ann1.id, ann2: ann2.id, ann3: ann3.id, lead: lead.id, otherLead: otherLead.id }, study, other };
}

export async function removeCommentQuestionsFixture(db: PrismaClient, fx: CommentQuestionsFixture): Promise<void> {
  await db.study.deleteMany({ where: { id: { in: [fx.study.studyId, fx.other.studyId] } } });
  await db.account.deleteMany({ where: { id: { in: Object.values(fx.accounts) } } });
}
