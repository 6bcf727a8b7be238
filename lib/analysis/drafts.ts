/**
 * What counts: reports count submitted work. A rating is a draft while its annotator's
 * assignment for the item's code change and task is not submitted (pending, in progress or
 * skipped); work without an assignment (imported sheets, work whose assignment moved on) counts
 * as submitted. Drafts are left out unless a report asks for them, and each report says how many.
 */
export type DraftMode = "exclude" | "include";

/** The key of an (annotator, code change) pair in a set of unsubmitted work. */
export const workKey = (annotatorId: string, codeChangeId: string) => `${annotatorId}|${codeChangeId}`;

/** Whether a judgement or rating of this annotator on this code change is a draft. */
export const isDraft = (unsubmitted: ReadonlySet<string>, annotatorId: string, codeChangeId: string) => unsubmitted.has(workKey(annotatorId, codeChangeId));

/** How a report states what it counts. */
export function countedWork(drafts: DraftMode): string {
  return drafts === "include" ? "submitted work and drafts (unsubmitted work included on request)" : "submitted work only (drafts of unsubmitted assignments left out)";
}
