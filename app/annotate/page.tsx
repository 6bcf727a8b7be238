import { DataTable } from "@/components/dashboard/data-table";
import { count, text } from "@/components/dashboard/table-data";
import { formatDuration } from "@/components/format";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import { ProgressBar } from "@/components/progress-bar";
import { requirePageAccount } from "@/lib/auth/session";
import { listQueuesForAnnotator } from "@/lib/data/assignments";
import { participantStudySlug } from "@/lib/data/participants";
import Link from "next/link";
import { PAUSED_MESSAGE, QUALIFICATION_MESSAGE } from "@/lib/data/study-access";
import { waitingLabel, waitingSummary } from "@/lib/annotation/waiting";

export const dynamic = "force-dynamic";

export default async function AnnotatorHome() {
  const account = await requirePageAccount();
  const [queues, crowdStudy] = await Promise.all([listQueuesForAnnotator(account.id), participantStudySlug(account.id)]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">My assignments</h1>
      {crowdStudy && (
        <p role="status" className="rounded border border-sky-300 bg-sky-50 p-2 text-sm text-sky-900" data-testid="participation-link">
          When your items are done,{" "}
          <Link href={`/participate/${crowdStudy}`} prefetch={false} className="text-blue-700 underline">
            finish on your participation page
          </Link>{" "}
          for your completion code.
        </p>
      )}
      {queues.length === 0 && <p className="text-slate-600">You have no assignments yet.</p>}
      {queues.map((queue) => {
        const unfinished = queue.entries.filter((e) => e.status === "PENDING" || e.status === "IN_PROGRESS");
        const waiting = unfinished.flatMap((e) => (e.waiting ? [e.waiting] : []));
        const afterStage1 = unfinished.filter((e) => !e.waiting && e.afterOwnStage1).length;
        const open = unfinished.length - waiting.length - afterStage1;
        const closedByQualification = queue.qualification === "pending" || queue.qualification === "failed";
        return (
          <section key={queue.study.slug} className="rounded border border-slate-200 bg-white p-4" aria-label={queue.study.name}>
            <div className="flex flex-wrap items-center gap-4">
              <h2 className="text-lg font-medium">{queue.study.name}</h2>
              <ProgressBar done={queue.done} total={queue.total} label={`Progress in ${queue.study.name}`} />
              <span className="text-sm text-slate-500">time spent {formatDuration(queue.timeSpentMs)}</span>
            </div>
            <p className="mt-2 text-sm text-slate-700" data-testid="queue-summary">
              {open} open to work on
              {waiting.length > 0 && ` · ${waiting.length} waiting: ${waitingSummary(waiting)}`}
              {afterStage1 > 0 && ` · ${afterStage1} after your stage 1 of the item`}
            </p>
            {queue.waitingForNextRound && !queue.paused && (
              <p role="status" className="mt-3 rounded border border-sky-300 bg-sky-50 p-2 text-sm text-sky-900" data-testid="waiting-for-round">
                You have finished this calibration round: waiting for the next round. A lead opens it after reviewing the round&apos;s agreement; reload this page to check.
              </p>
            )}
            {queue.qualification === "pending" && (
              <p role="status" className="mt-3 rounded border border-sky-300 bg-sky-50 p-2 text-sm text-sky-900" data-testid="qualification-pending">
                {QUALIFICATION_MESSAGE}{" "}
                <Link href={`/qualification/${queue.study.slug}`} prefetch={false} className="text-blue-700 underline">
                  Take the qualification
                </Link>
              </p>
            )}
            {queue.qualification === "failed" && (
              <p role="alert" className="mt-3 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" data-testid="qualification-failed">
                You did not pass this study&apos;s qualification: its items stay closed to you.
              </p>
            )}
            {queue.paused && (
              <p role="alert" className="mt-3 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" data-testid="paused">
                {PAUSED_MESSAGE}
              </p>
            )}
            <div className="mt-3">
              <DataTable
                table={{
                  label: `Assignments in ${queue.study.name}`,
                  columns: [
                    { key: "position", label: "#", numeric: true },
                    { key: "item", label: "Item" },
                    { key: "language", label: "Language" },
                    { key: "task", label: "Task" },
                    { key: "status", label: "Status" },
                  ],
                  rows: queue.entries.map((entry) => {
                    const name = entry.codeChange.filePath || entry.codeChange.externalId;
                    const open = unfinished.includes(entry);
                    return {
                      key: entry.id,
                      data: { testid: "assignment-row" },
                      cells: [
                        count(entry.position + 1),
                        // A paused queue, one closed until the qualification is passed, or an item of a round not open yet, shows no link to the workspace.
                        text(name, { mono: true, href: queue.paused || closedByQualification || entry.waiting?.kind === "round" ? undefined : `/annotate/${entry.id}` }),
                        text(entry.codeChange.language),
                        text(TASK_LABELS[entry.task]),
                        text(
                          !open
                            ? entry.status.toLowerCase()
                            : entry.waiting
                              ? waitingLabel(entry.waiting)
                              : entry.afterOwnStage1
                                ? "after your stage 1 of this item"
                                : entry.status === "PENDING"
                                  ? "open"
                                  : "in progress",
                          { data: { testid: "assignment-status" }, tone: open && (entry.waiting || entry.afterOwnStage1) ? "warn" : undefined },
                        ),
                      ],
                    };
                  }),
                }}
              />
            </div>
          </section>
        );
      })}
    </div>
  );
}
