"use client";

import { memo, type ReactNode } from "react";
import { Markdown } from "@/components/workspace/markdown";
import { anchorText, type Thread } from "@/lib/review-comments/threads";
import type { PullRequestComment } from "@/lib/review-comments/display";

export const commentElementId = (id: string) => `review-comment-${id}`;

function CommentCard({ comment, reply, focused, onFocus, below }: { comment: PullRequestComment; reply: boolean; focused: boolean; onFocus: (id: string) => void; below?: ReactNode }) {
  return (
    <article
      id={commentElementId(comment.id)}
      tabIndex={-1}
      data-testid="review-comment"
      data-comment-id={comment.id}
      aria-current={focused ? "true" : undefined}
      aria-label={`${reply ? "Reply by" : "Comment by"} ${comment.reviewer} on ${anchorText(comment)}`}
      onClick={() => onFocus(comment.id)}
      className={`scroll-mt-[calc(var(--pr-sticky-top,0px)+6rem)] scroll-mb-24 rounded border bg-white px-2 py-1 outline-none ${reply ? "ml-6" : ""} ${focused ? "border-blue-700 ring-2 ring-blue-700" : "border-slate-300"}`}
    >
      <header className="flex flex-wrap items-baseline gap-x-2 text-xs text-slate-600">
        <span className="font-semibold text-slate-900" data-testid="comment-reviewer">
          {comment.reviewer}
        </span>
        {comment.author && <span>@{comment.author}</span>}
        <span>{reply ? "replied" : anchorText(comment)}</span>
        {comment.details?.map((d) => (
          <span key={d} className="rounded bg-slate-100 px-1">
            {d}
          </span>
        ))}
      </header>
      <div className="font-sans" data-testid="comment-body">
        <Markdown source={comment.body} />
      </div>
      {below}
    </article>
  );
}

/**
 * A comment and its replies, between the lines it is on (or at its file's head). `renderBelow`
 * adds what goes with a comment (the annotator's answers of the focused one).
 */
export const CommentThread = memo(function CommentThread({
  thread,
  focusedId,
  onFocus,
  renderBelow,
}: {
  thread: Thread<PullRequestComment>;
  focusedId: string | null;
  onFocus: (id: string) => void;
  renderBelow?: (comment: PullRequestComment, focused: boolean) => ReactNode;
}) {
  return (
    <div className="space-y-1 border-y border-slate-200 bg-slate-50 px-2 py-1 font-sans" data-testid="comment-thread">
      {[thread.root, ...thread.replies].map((c, i) => (
        <CommentCard key={c.id} comment={c} reply={i > 0} focused={c.id === focusedId} onFocus={onFocus} below={renderBelow?.(c, c.id === focusedId)} />
      ))}
    </div>
  );
});
