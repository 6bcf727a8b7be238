/**
 * `github-comments` export: every pull request's review comments in GitHub's REST shape (path,
 * side, start_line, line, body, user.login, id, in_reply_to_id, …), one comment per line, so
 * that `import-pr --comments` reads them back. The product's own values are under one added key,
 * `crjudge`: the pull request, the comment's system and, per question asked of the comment, each
 * annotator's answer and the consensus (docs/pull-request-formats.md). The comment's metadata
 * (the tool's fields, GitHub's other keys) is written back as top-level keys.
 */
import type { PullRequestView, ReviewCommentView } from "@/lib/data/pull-requests";

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

/** The questions asked of each comment, by comment id and question key. */
export type CommentQuestions = ReadonlyMap<string, Record<string, CommentQuestion>>;

/** GitHub writes ids as numbers; an id of another source stays text. */
const idValue = (id: string): number | string => (/^\d{1,15}$/.test(id) ? Number(id) : id);

/** One comment in GitHub's shape, with the product's key. */
export function githubComment(pullRequest: PullRequestView, comment: ReviewCommentView, externalIdOf: ReadonlyMap<string, string>, questions: CommentQuestions): Record<string, unknown> {
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
    crjudge: { pullRequest: pullRequest.externalId, system: comment.system, questions: questions.get(comment.id) ?? {} },
  };
}

/** The export's lines: pull requests in the order given, comments in each pull request's order. */
export function* githubCommentsExport(pullRequests: readonly PullRequestView[], questions: CommentQuestions = new Map()): Generator<string> {
  for (const pullRequest of pullRequests) {
    const externalIdOf = new Map(pullRequest.comments.map((c) => [c.id, c.externalId]));
    for (const comment of pullRequest.comments) yield `${JSON.stringify(githubComment(pullRequest, comment, externalIdOf, questions))}\n`;
  }
}
