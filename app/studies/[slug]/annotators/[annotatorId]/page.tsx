import Link from "next/link";
import { DataTable } from "@/components/dashboard/data-table";
import { content, count, text } from "@/components/dashboard/table-data";
import { ReliabilityBadge } from "@/components/reliability-badge";
import { StudyPageHeader } from "@/components/study-page-header";
import { formatDuration } from "@/components/format";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import { CONSENSUS_RULE, ConsensusShareText, noCompetenceReason } from "@/components/dashboard/reliability-tables";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { STATUS_LABEL } from "@/lib/data/assignment-admin";
import { annotatorOverview } from "@/lib/data/lead-views";
import { orPageError } from "@/lib/errors/page";

export const dynamic = "force-dynamic";

const seconds = (ms: number) => Math.round(ms / 1000);

/**
 * One annotator's work in a study the lead leads: progress per task,
 * time on task in seconds, their answers per item (each linked to the item's read-only preview
 * with their answers), and their agreement with each other annotator and with the consensus.
 */
export default async function AnnotatorPage({ params }: { params: Promise<{ slug: string; annotatorId: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug, annotatorId } = await params;
  const { study, annotator, progress, items, agreement, counted } = await orPageError(annotatorOverview(account, slug, annotatorId));
  const base = `/studies/${encodeURIComponent(study.slug)}`;
  const name = annotator.name || annotator.email;
  const preview = (codeChangeId: string, task: string) => `${base}/items/${encodeURIComponent(codeChangeId)}?task=${task}&annotator=${encodeURIComponent(annotator.id)}`;
  return (
    <div className="space-y-6">
      <StudyPageHeader
        study={study}
        title={
          <>
            {name} <span className="text-base font-normal text-slate-500">{annotator.email}</span>
          </>
        }
      >
        {!annotator.active && <span className="rounded bg-amber-100 px-1 text-xs text-amber-800">inactive</span>}
        <p className="text-sm text-slate-600">
          Time on task, counted while the workspace was visible and the annotator active: <strong data-testid="time-total">{seconds(progress.timeSpentMs)} s</strong> ({formatDuration(progress.timeSpentMs)}) over {progress.total}{" "}
          assigned items.
        </p>
      </StudyPageHeader>

      <section aria-label="Progress">
        <h2 className="mb-2 text-lg font-medium">Progress per task</h2>
        <DataTable
          table={{
            label: "Progress per task",
            columns: [
              { key: "task", label: "Task" },
              { key: "assigned", label: "Assigned", numeric: true },
              { key: "submitted", label: "Submitted", numeric: true },
              { key: "draft", label: "Draft", numeric: true },
              { key: "notStarted", label: "Not started", numeric: true },
              { key: "skipped", label: "Skipped", numeric: true },
              { key: "progress", label: "Progress" },
            ],
            rows: study.tasks.map((t) => {
              const c = progress.byTask[t] ?? { total: 0, done: 0, skipped: 0, inProgress: 0 };
              return {
                key: t,
                data: { testid: "task-progress" },
                cells: [
                  text(TASK_LABELS[t]),
                  count(c.total),
                  count(c.done),
                  count(c.inProgress),
                  count(c.total - c.done - c.inProgress - c.skipped),
                  count(c.skipped),
                  c.total > 0 ? { text: "", progress: { done: c.done, total: c.total, label: `${TASK_LABELS[t]} progress of ${name}` } } : text(""),
                ],
              };
            }),
          }}
        />
      </section>

      <section aria-label="Agreement" className="space-y-2">
        <h2 className="text-lg font-medium">Agreement</h2>
        <p className="text-sm text-slate-600">
          From the study&apos;s agreement report, counting {counted}. Cohen&apos;s kappa with each other annotator on the items both rated, and the share of answers equal to {CONSENSUS_RULE} As on the{" "}
          <Link href={`${base}/agreement`} className="text-blue-700 underline">
            agreement page
          </Link>
          .
        </p>
        <DataTable
          table={{
            label: "Agreement",
            empty: `No submitted answers of ${name} are compared with others yet.`,
            columns: [
              { key: "question", label: "Question" },
              { key: "pairs", label: "Cohen's kappa with each other annotator" },
              { key: "consensus", label: "With consensus", numeric: true },
              { key: "competence", label: "Competence", numeric: true, title: "Dawid-Skene (1979): estimated probability of giving the true class; categorical questions only" },
            ],
            rows: agreement.map((q) => ({
              key: `${q.task}|${q.question}`,
              data: { testid: "agreement-row" },
              cells: [
                text(`${TASK_LABELS[q.task]}: ${q.label}`),
                content(
                  q.pairs.length === 0
                    ? "– (no other annotator answered this question)"
                    : q.pairs.map((p) => (
                        <span key={p.rater.id} className="mr-3 inline-block align-top" data-testid="pair-kappa">
                          {p.rater.name} <span className="tabular-nums">{p.value === null ? "undefined" : p.value.toFixed(3)}</span> <span className="text-slate-500">(n={p.n})</span>
                          {(p.reason ?? p.note) && <span className="block max-w-xs text-xs text-slate-600">{p.reason ?? p.note}</span>}
                        </span>
                      )),
                  { title: q.method },
                ),
                content(q.withConsensus ? <ConsensusShareText share={q.withConsensus} /> : "–"),
                content(q.competence === null ? <span className="text-xs text-slate-600">– ({noCompetenceReason(q.level)})</span> : q.competence.toFixed(3)),
              ],
            })),
          }}
        />
      </section>

      <section aria-label="Answers per item">
        <h2 className="mb-2 text-lg font-medium">Answers per item ({items.length})</h2>
        <DataTable
          table={{
            label: "Answers per item",
            columns: [
              { key: "item", label: "Item", sortable: true },
              { key: "task", label: "Task", sortable: true },
              { key: "status", label: "Status", sortable: true },
              { key: "time", label: "Time (s)", numeric: true, sortable: true },
              { key: "answers", label: "Answers" },
            ],
            rows: items.map((i) => ({
              key: i.assignmentId,
              data: { testid: "answer-row" },
              cells: [
                content(
                  <>
                    <Link href={preview(i.codeChangeId, i.task)} className="font-mono text-blue-700 hover:underline">
                      {i.filePath || i.externalId}
                    </Link>
                    {i.inReliabilitySet && <ReliabilityBadge />}
                  </>,
                  { text: i.filePath || i.externalId },
                ),
                text(TASK_LABELS[i.task]),
                text(STATUS_LABEL[i.status]),
                count(seconds(i.timeSpentMs)),
                content(
                  i.answers.length === 0 ? (
                    <span className="text-slate-500">none yet</span>
                  ) : (
                    <ul className="text-xs">
                      {i.answers.map((a) => (
                        <li key={a.item}>
                          <span className="font-medium">{a.item}</span>: {a.answers.map((x) => `${x.question} = ${String(x.value)}`).join(", ")}
                        </li>
                      ))}
                    </ul>
                  ),
                ),
              ],
            })),
          }}
        />
      </section>
    </div>
  );
}
