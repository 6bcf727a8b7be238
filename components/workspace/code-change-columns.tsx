"use client";

/**
 * The item as the workspace shows it: the code change on the left, the task on the right and
 * the guidelines with the codebook as a third column beside it, never over it. The annotator's
 * workspace and a lead's read-only preview both render it; in the
 * preview every control of the task is disabled (`readOnly`).
 */
import dynamic from "next/dynamic";
import { Fragment, type ReactNode, type RefObject } from "react";
import { DiffView, type DiffMode } from "@/components/diff-view";
import type { DiffSource } from "@/lib/diff";
import type { WorkspaceData } from "@/lib/data/annotations";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { Markdown } from "./markdown";
import type { AnswerStore, TaskData, TaskHandle } from "./types";

// Each task's part is a chunk of its own: a page loads the code of its item's task only, and the
// codebook (with every task's descriptor) once the guidelines are opened.
const ClaimTask = dynamic(() => import("./claim-task").then((m) => m.ClaimTask));
const RatingTask = dynamic(() => import("./rating-task").then((m) => m.RatingTask));
const GradingTask = dynamic(() => import("./grading-task").then((m) => m.GradingTask));
const CommentFilteringTask = dynamic(() => import("./comment-filtering-task").then((m) => m.CommentFilteringTask));
const PullRequestTask = dynamic(() => import("./pull-request-task").then((m) => m.PullRequestTask));
const CodebookPanel = dynamic(() => import("./codebook-panel").then((m) => m.CodebookPanel));

/** What the columns show: the item, its diffs, the study's guidelines and scales, and the task's part. */
export type ItemData = TaskData & Pick<WorkspaceData, "item" | "sources">;

export function CodeChangeColumns({
  data,
  taskKey,
  task,
  store,
  handle,
  onTarget,
  digitsMoveOn,
  mode,
  onModeChange,
  guidelines,
  onCloseGuidelines,
  showTask,
  readOnly = false,
  answersHeading,
  beforeTask,
  pullRequest,
}: {
  data: ItemData;
  /** A new key opens the task again (its cursor on the first unanswered question). */
  taskKey?: string;
  task: TaskType;
  store: AnswerStore;
  handle: RefObject<TaskHandle | null>;
  onTarget: (key: string | null) => void;
  digitsMoveOn: boolean;
  mode: DiffMode;
  onModeChange: (mode: DiffMode) => void;
  guidelines: boolean;
  onCloseGuidelines: () => void;
  /** False while the task cannot be worked on (skipped, or stage 2 waiting for stage 1). */
  showTask: boolean;
  readOnly?: boolean;
  /** The (screen-reader) heading of the task column. */
  answersHeading: string;
  /** Shown above the task (the workspace's conflicts). */
  beforeTask?: ReactNode;
  /** A pull request's workspace: how it loads the other files' diffs, whether the drafts are applied, where the focused comment is kept. */
  pullRequest?: { loadSource: (codeChangeId: string) => Promise<DiffSource>; ready?: boolean; placeKey?: string };
}) {
  const taskProps = { data, store, handle, onTarget, digitsMoveOn };
  const guide = guidelines && (
    <aside aria-label="Guidelines and codebook" data-testid="guidelines" className="overflow-auto rounded border border-slate-300 bg-white p-3 lg:max-h-[calc(100vh-9rem)]">
      <div className="mb-2 flex items-center">
        <h2 className="text-lg font-semibold">Guidelines</h2>
        <button type="button" onClick={onCloseGuidelines} className="ml-auto rounded px-2 text-slate-500 hover:bg-slate-100">
          g ✕
        </button>
      </div>
      {data.study.guidelines ? <Markdown source={data.study.guidelines} /> : <p className="text-sm text-slate-500">This study has no guidelines of its own.</p>}
      <hr className="my-3" />
      <CodebookPanel task={task} study={{ ...data.study, commentQuestions: data.commentQuestions?.questions ?? [] }} />
    </aside>
  );
  // The whole pull request, the questions under each comment (c-CRAB §4): the diff and the task are one column.
  if (data.commentQuestions)
    return (
      <div className={`grid gap-3 ${guidelines ? "lg:grid-cols-[minmax(0,1fr)_minmax(16rem,24rem)]" : ""}`}>
        <div className="min-w-0 space-y-2" aria-label="Task">
          <h2 className="sr-only">{answersHeading}</h2>
          {beforeTask}
          <PullRequestTask
            part={data.commentQuestions}
            sources={data.sources}
            loadSource={pullRequest?.loadSource ?? null}
            store={store}
            handle={handle}
            onTarget={onTarget}
            digitsMoveOn={digitsMoveOn}
            mode={mode}
            onModeChange={onModeChange}
            readOnly={readOnly || !showTask}
            ready={pullRequest?.ready ?? true}
            placeKey={pullRequest?.placeKey ?? null}
            blinded={data.study.hideSystemNames}
          />
        </div>
        {guide}
      </div>
    );
  const taskPart = showTask && (
    <Fragment key={taskKey}>
      {data.claimVerification && <ClaimTask {...taskProps} />}
      {data.reviewRating && <RatingTask {...taskProps} />}
      {data.referenceGrading && <GradingTask {...taskProps} />}
      {data.commentFiltering && <CommentFilteringTask {...taskProps} />}
    </Fragment>
  );
  return (
    <div className={`grid gap-3 ${guidelines ? "lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(16rem,24rem)]" : "lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]"}`}>
      <div className="space-y-2 lg:max-h-[calc(100vh-9rem)] lg:overflow-auto">
        <h2 className="sr-only">Code change</h2>
        {data.item.pullRequest && (
          <div className="rounded border border-slate-200 bg-white p-2 text-sm">
            <p className="font-medium">
              Pull request {data.item.pullRequest.title || data.item.pullRequest.externalId}
              {data.item.pullRequest.repository && <span className="ml-1 font-normal text-slate-500">· {data.item.pullRequest.repository}</span>}
            </p>
            {data.item.pullRequest.description && <p className="whitespace-pre-wrap text-slate-600">{data.item.pullRequest.description}</p>}
          </div>
        )}
        <DiffView sources={data.sources} mode={mode} onModeChange={onModeChange} />
      </div>
      <div className="space-y-2 lg:max-h-[calc(100vh-9rem)] lg:overflow-auto" aria-label="Task">
        <h2 className="sr-only">{answersHeading}</h2>
        {beforeTask}
        {readOnly ? (
          // A disabled fieldset disables every button, box and text area of the task: nothing can be changed, so nothing is saved.
          <fieldset disabled data-testid="read-only-task" className="min-w-0">
            <legend className="sr-only">{answersHeading} (read-only)</legend>
            {taskPart}
          </fieldset>
        ) : (
          taskPart
        )}
      </div>
      {guide}
    </div>
  );
}
