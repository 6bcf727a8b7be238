/**
 * One annotator's stored answers as a lead's read-only preview shows them: the task panels read them as they read the workspace's autosaved ones, but nothing
 * here can change or send them; the preview also disables every control.
 */
import type { TaskWorkspace } from "@/lib/tasks/types";
import { storedEntries } from "@/lib/annotation/stored-answers";
import { AnswerEntries } from "./autosave";
import type { AnswerStore } from "./types";

export class ReadOnlyAnswers extends AnswerEntries implements AnswerStore {
  constructor(task: TaskWorkspace) {
    super();
    for (const { kind, targetId, server } of storedEntries(task)) this.register(kind, targetId, server);
  }

  /** Never changes. */
  getSnapshot = () => 0;

  set(): never {
    throw new Error("This is a read-only preview: answers cannot be changed here.");
  }
}
