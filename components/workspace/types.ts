import type { RefObject } from "react";
import type { MissingAnswer } from "@/lib/annotation/completeness";
import { missingAnswers } from "@/lib/tasks";
import type { ShortcutAction } from "@/lib/annotation/keymap";
import type { WorkspaceData } from "@/lib/data/annotations";
import type { AutosaveStore } from "./autosave";

/** What a task panel reads and changes: the annotator's autosaved answers (AutosaveStore), or stored ones shown read-only (ReadOnlyAnswers). */
export type AnswerStore = Pick<AutosaveStore, "value" | "entry" | "list" | "set" | "getSnapshot">;

/** What the task panels show: the task's part of the workspace and the study's scales. */
export type TaskData = Pick<WorkspaceData, "claimVerification" | "reviewRating" | "referenceGrading" | "commentFiltering" | "commentQuestions" | "study">;

/** What a task panel exposes to the workspace's keyboard handler. */
export interface TaskHandle {
  /** Handles a shortcut; returns false when the action means nothing here. */
  onAction(action: ShortcutAction): boolean;
  /** Moves the cursor to a missing answer (a refused submit shows the first). */
  show(missing: MissingAnswer): void;
}

export interface TaskProps {
  data: TaskData;
  store: AnswerStore;
  handle: RefObject<TaskHandle | null>;
  /** The claim or review under the cursor ("judgement:<id>", "rating:<id>", ...), for time spent. */
  onTarget: (key: string | null) => void;
  /** The annotator's keyboard preference: a digit sets the value and moves to the next question. */
  digitsMoveOn: boolean;
}

/** A fresh client key for an annotation created in this page (an added claim). */
export function clientKey(): string {
  const c = globalThis.crypto;
  return typeof c?.randomUUID === "function" ? c.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** What is still missing in the answers the page shows (drafts included). */
export function missingIn(data: TaskData, store: AnswerStore): MissingAnswer[] {
  return missingAnswers(data, (kind, targetId) => store.value(kind, targetId), data.study.likertDimensions);
}
