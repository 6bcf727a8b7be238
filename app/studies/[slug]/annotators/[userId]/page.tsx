import Link from "next/link";
import { StudyPageHeader } from "@/components/study-page-header";
import { formatDuration, TASK_LABELS } from "@/components/format";
import { ProgressBar } from "@/components/progress-bar";
import { CONSENSUS_RULE, ConsensusShareText, noCompetenceReason } from "@/components/dashboard/reliability-tables";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
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
export default async function AnnotatorPage({ params }: { params: Promise<{ slug: string; userId: string }> }) {
  const user = await requirePageUser(LEAD_ROLES);
  const { slug, userId } = await params;
  const { study, annotator, progress, items, agreement, counted } = await orPageError(annotatorOverview(user, slug, userId));
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
        <table className="w-full rounded border border-slate-200 bg-white text-left text-sm [&_td]:px-3 [&_th]:px-3">
          <thead className="bg-slate-100 text-slate-600">
            <tr>
              <th className="py-2">Task</th>
              <th className="text-right">Assigned</th>
              <th className="text-right">Submitted</th>
              <th className="text-right">Draft</th>
              <th className="text-right">Not started</th>
              <th className="text-right">Skipped</th>
              <th>Progress</th>
            </tr>
          </thead>
          <tbody>
            {study.taskTypes.map((t) => {
              const c = progress.byTask[t] ?? { total: 0, done: 0, skipped: 0, inProgress: 0 };
              return (
                <tr key={t} className="border-t border-slate-100" data-testid="task-progress">
                  <td className="py-2">{TASK_LABELS[t]}</td>
                  <td className="text-right tabular-nums">{c.total}</td>
                  <td className="text-right tabular-nums">{c.done}</td>
                  <td className="text-right tabular-nums">{c.inProgress}</td>
                  <td className="text-right tabular-nums">{c.total - c.done - c.inProgress - c.skipped}</td>
                  <td className="text-right tabular-nums">{c.skipped}</td>
                  <td>{c.total > 0 && <ProgressBar done={c.done} total={c.total} label={`${TASK_LABELS[t]} progress of ${name}`} />}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
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
        {agreement.length === 0 ? (
          <p className="text-sm text-slate-600">No submitted answers of {name} are compared with others yet.</p>
        ) : (
          <table className="w-full rounded border border-slate-200 bg-white text-left text-sm [&_td]:px-3 [&_th]:px-3">
            <thead className="bg-slate-100 text-slate-600">
              <tr>
                <th className="py-2">Question</th>
                <th>Cohen&apos;s kappa with each other annotator</th>
                <th className="text-right">With consensus</th>
                <th className="text-right" title="Dawid-Skene (1979): estimated probability of giving the true class; categorical questions only">
                  Competence
                </th>
              </tr>
            </thead>
            <tbody>
              {agreement.map((q) => (
                <tr key={`${q.task}|${q.question}`} className="border-t border-slate-100 align-top" data-testid="agreement-row">
                  <td className="py-2">
                    {TASK_LABELS[q.task]}: {q.label}
                  </td>
                  <td title={q.method}>
                    {q.pairs.length === 0
                      ? "– (no other annotator answered this question)"
                      : q.pairs.map((p) => (
                          <span key={p.rater.id} className="mr-3 inline-block align-top" data-testid="pair-kappa">
                            {p.rater.name} <span className="tabular-nums">{p.value === null ? "undefined" : p.value.toFixed(3)}</span> <span className="text-slate-500">(n={p.n})</span>
                            {(p.reason ?? p.note) && <span className="block max-w-xs text-xs text-slate-600">{p.reason ?? p.note}</span>}
                          </span>
                        ))}
                  </td>
                  <td className="text-right tabular-nums">{q.withConsensus ? <ConsensusShareText share={q.withConsensus} /> : "–"}</td>
                  <td className="text-right tabular-nums">{q.competence === null ? <span className="text-xs text-slate-600">– ({noCompetenceReason(q.level)})</span> : q.competence.toFixed(3)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-label="Answers per item">
        <h2 className="mb-2 text-lg font-medium">Answers per item ({items.length})</h2>
        <table className="w-full rounded border border-slate-200 bg-white text-left text-sm [&_td]:px-3 [&_th]:px-3">
          <thead className="bg-slate-100 text-slate-600">
            <tr>
              <th className="py-2">Item</th>
              <th>Task</th>
              <th>Status</th>
              <th className="text-right">Time (s)</th>
              <th>Answers</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <tr key={i.assignmentId} className="border-t border-slate-100 align-top" data-testid="answer-row">
                <td className="py-2 font-mono">
                  <Link href={preview(i.codeChangeId, i.taskType)} className="text-blue-700 hover:underline">
                    {i.filePath || i.externalId}
                  </Link>
                  {i.inReliabilitySet && <span className="ml-1 rounded bg-violet-100 px-1 font-sans text-xs text-violet-800">reliability</span>}
                </td>
                <td>{TASK_LABELS[i.taskType]}</td>
                <td>{STATUS_LABEL[i.status]}</td>
                <td className="text-right tabular-nums">{seconds(i.timeSpentMs)}</td>
                <td className="text-xs">
                  {i.answers.length === 0 ? (
                    <span className="text-slate-500">none yet</span>
                  ) : (
                    <ul>
                      {i.answers.map((a) => (
                        <li key={a.item}>
                          <span className="font-medium">{a.item}</span>: {a.answers.map((x) => `${x.question} = ${String(x.value)}`).join(", ")}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
