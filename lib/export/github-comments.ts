/**
 * `github-comments` export: every pull request's review comments in GitHub's REST shape (path,
 * side, start_line, line, body, user.login, id, in_reply_to_id, …), one comment per line, so
 * that `import-pr --comments` reads them back. The product's own values are under one added key,
 * `crjudge`: the pull request, the comment's system and, per question asked of the comment, each
 * annotator's answer and the consensus, and for a human comment whose tests have outcomes,
 * `testOutcomes` (each system's `{system, test, outcome}`; docs/pull-request-formats.md). The comment's metadata
 * (the tool's fields, GitHub's other keys) is written back as top-level keys.
 */
import type { PullRequestView, ReviewCommentView } from "@/lib/data/pull-requests";
import type { AnswerValue } from "@/lib/agreement";
import { type CommentQuestion as AskedQuestion, type CommentAnswersValue } from "@/lib/annotation/comment-questions";
import { answerOnScale, askedOf } from "@/lib/annotation/comment-answers";
import type { AnswerStatus } from "./answers";

/** One annotator's answer to one question about a comment. */
export interface CommentAnswer {
  annotator: string;
  annotatorId: string;
  value: unknown;
  note: string | null;
  status: string;
}

/** A question's answers and consensus for one comment (null: none). */
export interface CommentQuestion {
  answers: CommentAnswer[];
  consensus: unknown;
}

/** The test outcomes of each human comment's tests, by comment id (./test-outcomes.ts). */
export type CommentOutcomes = ReadonlyMap<string, readonly { system: string; test: string; outcome: string }[]>;

/** The questions asked of each comment, by comment id and question key. */
export type CommentQuestions = ReadonlyMap<string, Record<string, CommentQuestion>>;

/** One annotator's comment answers as the export reads them. */
export interface StoredCommentAnswers extends CommentAnswersValue {
  commentId: string;
  annotatorId: string;
  annotator: string;
  /** "draft" while the annotator's assignment of the pull request is not submitted. */
  status: AnswerStatus;
}

/**
 * Each comment's questions for the export: per question asked of the comment, every answer
 * given (a binary's as "yes"/"no", as agreement and consensus write it) with its justification and
 * status, and the consensus (null when none). Comments in `leftOut` (gold, unless asked for) get none.
 */
export function commentQuestionsForExport(
  comments: readonly { id: string; hasTest: boolean }[],
  questions: readonly AskedQuestion[],
  likert: { likertMin: number; likertMax: number },
  stored: readonly StoredCommentAnswers[],
  consensus: ReadonlyMap<string, ReadonlyMap<string, { value: AnswerValue }>>,
  leftOut: ReadonlySet<string> = new Set(),
): CommentQuestions {
  const byComment = new Map<string, StoredCommentAnswers[]>();
  for (const row of stored) byComment.set(row.commentId, [...(byComment.get(row.commentId) ?? []), row]);
  const out = new Map<string, Record<string, CommentQuestion>>();
  for (const comment of comments) {
    if (leftOut.has(comment.id)) continue;
    const rows = byComment.get(comment.id) ?? [];
    const entries = questions
      .filter((q) => askedOf(q, comment))
      .map((q): [string, CommentQuestion] => [
        q.key,
        {
          answers: rows.flatMap((r) => {
            const value = answerOnScale(q, r.answers[q.key], likert);
            return value === null ? [] : [{ annotator: r.annotator, annotatorId: r.annotatorId, value, note: r.notes[q.key] || null, status: r.status }];
          }),
          consensus: consensus.get(comment.id)?.get(q.key)?.value ?? null,
        },
      ]);
    out.set(comment.id, Object.fromEntries(entries));
  }
  return out;
}

/** GitHub writes ids as numbers; an id of another source stays text. */
const idValue = (id: string): number | string => (/^\d{1,15}$/.test(id) ? Number(id) : id);

/** One comment in GitHub's shape, with the product's key. */
export function githubComment(pullRequest: PullRequestView, comment: ReviewCommentView, externalIdOf: ReadonlyMap<string, string>, questions: CommentQuestions, outcomes: CommentOutcomes = new Map()): Record<string, unknown> {
  const tested = outcomes.get(comment.id);
  const parent = comment.inReplyToId === null ? null : (externalIdOf.get(comment.inReplyToId) ?? null);
  return {
    ...comment.metadata,
    id: idValue(comment.externalId),
    path: comment.path,
    subject_type: comment.line === null ? "file" : "line",
    side: comment.side,
    start_side: comment.startSide,
    start_line: comment.startLine,
    line: comment.line,
    body: comment.body,
    user: comment.author === "" ? null : { login: comment.author },
    in_reply_to_id: parent === null ? null : idValue(parent),
    crjudge: { pullRequest: pullRequest.externalId, system: comment.system, questions: questions.get(comment.id) ?? {}, ...(tested ? { testOutcomes: tested } : {}) },
  };
}

/** The export's lines: pull requests in the order given, comments in each pull request's order. */
export function* githubCommentsExport(pullRequests: readonly PullRequestView[], questions: CommentQuestions = new Map(), outcomes: CommentOutcomes = new Map()): Generator<string> {
  for (const pullRequest of pullRequests) {
    const externalIdOf = new Map(pullRequest.comments.map((c) => [c.id, c.externalId]));
    for (const comment of pullRequest.comments) yield `${JSON.stringify(githubComment(pullRequest, comment, externalIdOf, questions, outcomes))}\n`;
  }
}
