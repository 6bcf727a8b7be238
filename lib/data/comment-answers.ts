/**
 * Comment questions' queries (lib/tasks/comment-questions.ts): the check of a save against the
 * study's questions, the workspace's pull request with its files, comments in reading order and
 * the annotator's own answers, and a comment's answers for adjudication.
 */
import "server-only";
import { AppError } from "@/lib/errors";
import { commentQuestionsOf } from "@/lib/annotation/comment-questions";
import { answerOnScale, answersProblem, matchDegrees } from "@/lib/annotation/comment-answers";
import { HUMAN_SYSTEM } from "@/lib/analysis/comment-systems";
import type { SaveRequest } from "@/lib/annotation/values";
import { commentsInReadingOrder } from "@/lib/review-comments/threads";
import { diffLineCount } from "@/lib/review-comments/display";
import { answersValue, pairOfItem, reviewerLabels } from "@/lib/tasks/comment-questions";
import type { WorkspaceComment } from "@/lib/tasks/types";
import type { Db, TaskQueries } from "@/lib/data/annotation-rows";

/** The study's questions and Likert scale, as an item's answers are read on them. */
const studyQuestionsSelect = { commentQuestions: true, likertMin: true, likertMax: true } as const;

/** Refuses answers the study's questions do not take (400 naming why); reads through the annotator's own assignment only, in one statement. */
async function checkAnswers(client: Db, annotatorId: string, request: SaveRequest): Promise<void> {
  if (request.kind !== "commentAnswers") return;
  const [found] = await client.$queryRaw<{ hasTest: boolean; matchTargets: string[]; commentQuestions: unknown; likertMin: number; likertMax: number }[]>`
    SELECT c."testText" IS NOT NULL AS "hasTest", s."commentQuestions", s."likertMin", s."likertMax",
      CASE WHEN c.system = ${HUMAN_SYSTEM} THEN ARRAY[]::text[] ELSE ARRAY(SELECT h.id FROM "ReviewComment" h WHERE h."pullRequestId" = c."pullRequestId" AND h.system = ${HUMAN_SYSTEM}) END AS "matchTargets"
    FROM "ReviewComment" c JOIN "PullRequest" p ON p.id = c."pullRequestId" JOIN "Study" s ON s.id = p."studyId"
    WHERE c.id = ${request.targetId}
      AND EXISTS (SELECT 1 FROM "Assignment" a JOIN "CodeChange" f ON f.id = a."codeChangeId" WHERE a.id = ${request.assignmentId} AND a."userId" = ${annotatorId} AND f."pullRequestId" = c."pullRequestId")`;
  if (!found) return;
  const problem = answersProblem(request.value, commentQuestionsOf(found.commentQuestions), found, found);
  if (problem) throw new AppError("INVALID_INPUT", { message: `Not saved: ${problem}.` });
}

export const commentAnswerQueries: TaskQueries = {
  async readWorkspace({ client, accountId, codeChangeId, study, reviewSeed }) {
    // The annotator's answers are read beside the pull request, found by the same code change: not after it.
    const [change, answers] = await Promise.all([
      client.codeChange.findUniqueOrThrow({
        where: { id: codeChangeId },
        select: {
          pullRequest: {
            select: {
              id: true,
              externalId: true,
              repository: true,
              url: true,
              title: true,
              description: true,
              baseSha: true,
              headSha: true,
              codeChanges: { orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true, filePath: true, oldPath: true, status: true, binary: true, language: true, diff: true } },
              comments: {
                orderBy: [{ position: "asc" }, { id: "asc" }],
                select: { id: true, externalId: true, codeChangeId: true, path: true, side: true, startSide: true, startLine: true, line: true, body: true, system: true, author: true, inReplyToId: true, testPath: true, testText: true },
              },
            },
          },
        },
      }),
      client.commentAnswers.findMany({ where: { annotatorId: accountId, reviewComment: { pullRequest: { codeChanges: { some: { id: codeChangeId } } } } }, select: { id: true, version: true, reviewCommentId: true, answers: true, notes: true } }),
    ]);
    const pr = change.pullRequest;
    if (!pr) return {};
    const reviewers = reviewerLabels(
      pr.comments.map((c) => c.system),
      reviewSeed,
    );
    const files = pr.codeChanges.map((f) => ({ codeChangeId: f.id, path: f.filePath, oldPath: f.oldPath, status: f.status, binary: f.binary, language: f.language, diffLines: diffLineCount(f.diff) }));
    // The order j/k walks them, as the pull request's page shows them (lib/review-comments/threads);
    // threads on the same line in the annotator's own order of the reviewers.
    const reviewerRank = new Map([...reviewers.keys()].map((system, i) => [system, i]));
    // The matching question names the human reviewers' comments, even when systems are blinded.
    const matching = study.commentQuestions.some((q) => q.kind === "match");
    const comments = commentsInReadingOrder(
      pr.comments,
      pr.codeChanges.map((f) => ({ codeChangeId: f.id, diff: f.diff })),
      (c) => reviewerRank.get(c.system)!,
    ).map(
      (c): WorkspaceComment => ({
        id: c.id,
        externalId: c.externalId,
        codeChangeId: c.codeChangeId,
        path: c.path,
        side: c.side,
        startSide: c.startSide,
        startLine: c.startLine,
        line: c.line,
        body: c.body,
        reviewer: reviewers.get(c.system)!,
        ...(study.hideSystemNames ? {} : { system: c.system, author: c.author }),
        inReplyToId: c.inReplyToId,
        ...(matching && c.system === HUMAN_SYSTEM ? { human: true } : {}),
        test: c.testText === null ? null : { path: c.testPath ?? "", text: c.testText },
      }),
    );
    const { externalId, repository, url, title, description, baseSha, headSha } = pr;
    return {
      commentQuestions: {
        pullRequest: { id: pr.id, externalId, repository, url, title, description, baseSha, headSha },
        files,
        comments,
        questions: [...study.commentQuestions],
        likertMin: study.likertMin,
        likertMax: study.likertMax,
        answers: Object.fromEntries(answers.map((a) => [a.reviewCommentId, { id: a.id, version: a.version, value: answersValue(a) }])),
      },
    };
  },

  check: checkAnswers,

  async itemAnnotations(client, itemId, questions) {
    // A pair's annotations are its system comment's, read on the matching question toward its human comment.
    const pair = pairOfItem(itemId);
    const rows = await client.commentAnswers.findMany({ where: { reviewCommentId: pair?.commentId ?? itemId }, orderBy: { createdAt: "asc" }, include: { annotator: { select: { id: true, name: true } }, reviewComment: { select: { pullRequest: { select: { study: { select: studyQuestionsSelect } } } } } } });
    return rows.map((row) => {
      const study = row.reviewComment.pullRequest.study;
      const configured = commentQuestionsOf(study.commentQuestions);
      const { answers, notes } = answersValue(row);
      const values = Object.fromEntries(
        questions.map((question) => {
          const q = configured.find((c) => c.key === question.key);
          if (pair) return [question.key, q?.kind === "match" ? (matchDegrees(answers[q.key])[pair.humanCommentId] ?? null) : null];
          return [question.key, q ? answerOnScale(q, answers[q.key], study) : null];
        }),
      );
      const justified = Object.entries(notes).filter(([, note]) => note.trim() !== "");
      return { annotatorId: row.annotatorId, annotator: row.annotator.name, values, note: justified.map(([key, note]) => `${key}: ${note}`).join("\n"), details: [] };
    });
  },
};
