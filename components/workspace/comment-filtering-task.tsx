"use client";

/**
 * Comment filtering (c-CRAB section 4.2.1): is the review comment a specific, actionable and
 * objectively verifiable issue (high quality) or not, with a short justification.
 */
import { COMMENT_FILTER_LABELS } from "@/lib/annotation/codebook";
import type { CommentFilteringLabelValue } from "@/lib/annotation/values";
import { type Choice, ReviewChoiceTask } from "./review-choice-task";
import type { TaskProps } from "./types";

/** A label being written: the justification can come before the label. */
type Draft = Partial<CommentFilteringLabelValue>;

const LABELS: readonly Choice<boolean>[] = [
  { value: true, digit: 1, label: `1 ${COMMENT_FILTER_LABELS.high.label}` },
  { value: false, digit: 0, label: `0 ${COMMENT_FILTER_LABELS.low.label}` },
];

export function CommentFilteringTask(props: TaskProps) {
  const intro = (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs text-slate-600">
      <dt className="font-medium">1 {COMMENT_FILTER_LABELS.high.label}</dt>
      <dd>{COMMENT_FILTER_LABELS.high.description}</dd>
      <dt className="font-medium">0 {COMMENT_FILTER_LABELS.low.label}</dt>
      <dd>{COMMENT_FILTER_LABELS.low.description}</dd>
    </dl>
  );
  return (
    <ReviewChoiceTask<boolean, Draft>
      {...props}
      kind="label"
      reviews={props.data.commentFiltering!.reviews}
      intro={intro}
      listLabel="Review comments"
      choices={LABELS}
      choiceLabel="Quality"
      noteLabel="Justification for"
      notePlaceholder="m — short justification"
      toAnswer={(v) => ({ choice: v?.highQuality, note: v?.justification ?? "" })}
      toStored={(a) => ({ highQuality: a.choice, justification: a.note })}
    />
  );
}
