/**
 * Comment questions, c-CRAB §4.2.1, §4.4.3, §5.2 and §5.3: the study's questions (usefulness, a
 * category from a codebook, a linked test's faithfulness, Likert scores, grades: see
 * lib/annotation/comment-questions.ts) answered of each review comment of a pull request. One
 * annotation per annotator and comment holds its answers to every question (`CommentAnswers`),
 * so the workspace saves a comment's whole value at once like a rating's scores.
 *
 * The assignment covers a pull request: it is stored on the pull request's first file (its code
 * change of lowest position), which is the code change its `appliesTo` counts the pull request's
 * comments on; the items it covers are the pull request's comments (`itemOfAssignmentSql`).
 */
import { AppError } from "@/lib/errors";
import { letterLabel, seededShuffle } from "@/lib/annotation/random";
import { missingEntry } from "@/lib/annotation/completeness";
import { answerOnScale, answersProblem, commentAnswersValue, commentQuestionsOf, missingOfComment, questionScale, type CommentAnswersValue, type CommentQuestion } from "@/lib/annotation/comment-questions";
import type { Question } from "@/lib/analysis/questions";
import type { SaveRequest } from "@/lib/annotation/values";
import { diffPositions, readingOrder, sideOf, threadsOf } from "@/lib/review-comments/threads";
import { nonEmpty } from "./reviews";
import type { Db, TaskDescriptor, TaskWorkspace, WorkspaceComment } from "./types";

/** A stored JSON object column as a plain record ({} for anything else). */
const record = <V>(json: unknown): Record<string, V> => (json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, V>) : {});

export const answersValue = (row: { answers: unknown; notes: unknown }): CommentAnswersValue => ({ answers: record(row.answers), notes: record(row.notes) });

/** The Question agreement, adjudication and consensus compute on for one comment question. */
export function commentQuestion(question: CommentQuestion, study: { likertMin: number; likertMax: number }): Question {
  const ordinal = question.kind === "likert" || question.kind === "grade";
  return { task: "COMMENT_QUESTIONS", key: question.key, label: question.label, level: ordinal ? "ordinal" : "nominal", scale: questionScale(question, study), weights: ordinal ? "quadratic" : "unweighted" };
}

/** "Reviewer A", ... for each system of the pull request, in an order shuffled by `seed` (systems sorted first, so the order depends on the seed alone). */
export function reviewerLabels(systems: readonly string[], seed: number): Map<string, string> {
  const distinct = [...new Set(systems)].sort();
  return new Map(seededShuffle(distinct, seed).map((system, i) => [system, `Reviewer ${letterLabel(i)}`]));
}

/** The study's questions and Likert scale as the save's check and the workspace read them. */
const studyQuestionsSelect = { commentQuestions: true, likertMin: true, likertMax: true } as const;

/** Refuses answers the study's questions do not take (400 naming why); reads through the annotator's own assignment only, in one statement. */
async function checkAnswers(client: Db, annotatorId: string, request: SaveRequest): Promise<void> {
  if (request.kind !== "commentAnswers") return;
  const [found] = await client.$queryRaw<{ hasTest: boolean; commentQuestions: unknown; likertMin: number; likertMax: number }[]>`
    SELECT c."testText" IS NOT NULL AS "hasTest", s."commentQuestions", s."likertMin", s."likertMax"
    FROM "ReviewComment" c JOIN "PullRequest" p ON p.id = c."pullRequestId" JOIN "Study" s ON s.id = p."studyId"
    WHERE c.id = ${request.targetId}
      AND EXISTS (SELECT 1 FROM "Assignment" a JOIN "CodeChange" f ON f.id = a."codeChangeId" WHERE a.id = ${request.assignmentId} AND a."userId" = ${annotatorId} AND f."pullRequestId" = c."pullRequestId")`;
  if (!found) return;
  const problem = answersProblem(request.value, commentQuestionsOf(found.commentQuestions), { hasTest: found.hasTest }, found);
  if (problem) throw new AppError("INVALID_INPUT", { message: `Not saved: ${problem}.` });
}

/** A comment's label in the missing list: its place in reading order and where it is. */
const commentLabel = (c: WorkspaceComment, index: number) => `Comment ${index + 1} (${c.path}${c.line === null ? "" : `:${c.line}`})`;

export const commentQuestions: TaskDescriptor = {
  task: "COMMENT_QUESTIONS",
  name: "comment questions",
  label: "Comment questions",
  annotationName: "comment answers",
  values: {
    commentAnswers: {
      schema: commentAnswersValue,
      history: "COMMENT_ANSWERS",
      row: {
        fields: [
          { name: "answers", type: "jsonb" },
          { name: "notes", type: "jsonb" },
        ],
        itemCondition: "true",
        notFound: "No such review comment in this pull request.",
      },
      check: checkAnswers,
    },
  },
  timeKey: "comment",
  itemKind: "reviewComment",
  storage: { model: "commentAnswers", table: "CommentAnswers", item: { column: "reviewCommentId", field: "reviewCommentId", relation: "reviewComment" } },
  appliesTo: (item) => item.pullRequestComments > 0,
  questions: (study) => study.commentQuestions.map((q) => commentQuestion(q, study)),
  answer(question) {
    const key = `'${question.key}'`; // keys are [a-z0-9-] (commentQuestionsSetting)
    if (question.level === "ordinal") return { jsonNumber: "answers" };
    if (question.scale.length === 2 && question.scale[0] === "no" && question.scale[1] === "yes") return { text: `CASE a."answers" -> ${key} WHEN 'true'::jsonb THEN 'yes' WHEN 'false'::jsonb THEN 'no' END` };
    return { text: `a."answers" ->> ${key}` };
  },
  missing(workspace: TaskWorkspace, answer) {
    const part = workspace.commentQuestions;
    if (!part) return [];
    return part.comments.flatMap((comment, index) =>
      missingEntry("commentAnswers", comment.id, commentLabel(comment, index), missingOfComment(answer("commentAnswers", comment.id) as CommentAnswersValue | null, part.questions, { hasTest: comment.test !== null }, part)),
    );
  },

  async readWorkspace({ client, userId, codeChangeId, study, reviewSeed }) {
    const change = await client.codeChange.findUniqueOrThrow({
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
    });
    const pr = change.pullRequest;
    if (!pr) return {};
    const answers = await client.commentAnswers.findMany({ where: { annotatorId: userId, reviewComment: { pullRequestId: pr.id } }, select: { id: true, version: true, reviewCommentId: true, answers: true, notes: true } });
    const reviewers = reviewerLabels(
      pr.comments.map((c) => c.system),
      reviewSeed,
    );
    const files = pr.codeChanges.map((f) => ({ codeChangeId: f.id, path: f.filePath, oldPath: f.oldPath, status: f.status, binary: f.binary, language: f.language }));
    // The order j/k walks them, as the pull request's page shows them (lib/review-comments/threads).
    const positions = new Map(pr.codeChanges.map((f) => [f.id, diffPositions(f.diff)]));
    const comments = readingOrder(
      threadsOf(
        pr.comments,
        files.map((f) => f.codeChangeId),
        (c) => positions.get(c.codeChangeId)?.(sideOf(c), c.line!) ?? c.line!,
      ),
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

  export: {
    of: "reviewComment",
    values: (comment, study) =>
      comment.commentAnswers.map((a) => ({
        annotation: a,
        values: study.commentQuestions.flatMap((q): [string, string | null][] => {
          const value = answerOnScale(q, a.answers[q.key], study);
          const note: [string, string | null][] = q.justification === "none" ? [] : [[`${q.key}:justification`, nonEmpty(a.notes[q.key] ?? "")]];
          return [[q.key, value === null ? null : String(value)], ...note];
        }),
      })),
    ratings: (comment, question, study) => {
      const q = study.commentQuestions.find((c) => c.key === question.key);
      return comment.commentAnswers.map((a) => ({ annotatorId: a.annotator.id, value: q ? answerOnScale(q, a.answers[q.key], study) : null }));
    },
  },

  consensusColumn: (question, value) => [question, String(value)],

  async itemAnnotations(client, itemId, questions) {
    const rows = await client.commentAnswers.findMany({ where: { reviewCommentId: itemId }, orderBy: { createdAt: "asc" }, include: { annotator: { select: { id: true, name: true } }, reviewComment: { select: { pullRequest: { select: { study: { select: studyQuestionsSelect } } } } } } });
    return rows.map((row) => {
      const study = row.reviewComment.pullRequest.study;
      const configured = commentQuestionsOf(study.commentQuestions);
      const { answers, notes } = answersValue(row);
      const values = Object.fromEntries(
        questions.map((question) => {
          const q = configured.find((c) => c.key === question.key);
          return [question.key, q ? answerOnScale(q, answers[q.key], study) : null];
        }),
      );
      const justified = Object.entries(notes).filter(([, note]) => note.trim() !== "");
      return { annotatorId: row.annotatorId, annotator: row.annotator.name, values, note: justified.map(([key, note]) => `${key}: ${note}`).join("\n"), details: [] };
    });
  },
};
