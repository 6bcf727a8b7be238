import Link from "next/link";
import { StudyPageHeader } from "@/components/study-page-header";
import { formatDuration, TASK_LABELS } from "@/components/format";
import { ProgressBar } from "@/components/progress-bar";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { getAssignmentAdmin, STATUS_LABEL } from "@/lib/data/assignment-admin";
import { TASK_PHASES } from "@/lib/annotation/assignment-plan";
import { generate, previewGeneration, reassign, reassignOpen, saveSettings } from "./actions";
import { GenerateForm, ReassignForm, SettingsForm } from "./forms";

export const dynamic = "force-dynamic";

export default async function AssignmentsPage({ params }: { params: Promise<{ slug: string }> }) {
  const user = await requirePageUser(LEAD_ROLES);
  const { slug } = await params;
  const admin = await orPageError(getAssignmentAdmin(user, slug));
  const { study, items, progress, assignments } = admin;
  const people = progress.filter((p) => p.active).map((p) => ({ id: p.userId, label: p.name || p.email }));
  const anyMembers = progress.some((p) => p.member || p.total > 0);
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Assignments">
        <p className="text-sm text-slate-600">
          {items} code changes · tasks: {study.taskTypes.map((t) => TASK_LABELS[t]).join(", ")}. The order of each queue is a seeded shuffle: the same settings always give the same assignments. Claim verification of
          an item always comes before its review rating.
        </p>
      </StudyPageHeader>

      <section aria-label="Settings" className="space-y-2 rounded border border-slate-200 bg-white p-4">
        <h2 className="text-lg font-medium">Settings</h2>
        <SettingsForm
          slug={slug}
          initial={{ annotatorsPerItem: study.annotatorsPerItem, reliabilitySetSize: study.reliabilitySetSize, assignmentSeed: study.assignmentSeed }}
          save={saveSettings}
        />
        <p className="text-xs text-slate-500">
          Every item outside the reliability set goes to {study.annotatorsPerItem} annotator(s); the {study.reliabilitySetSize} items of the reliability set go to every annotator (for agreement) and are stored as the study&apos;s reliability{" "}
          <Link href={`/studies/${study.slug}/item-sets`} className="text-blue-700 hover:underline">
            item set
          </Link>
          .
        </p>
      </section>

      <section aria-label="Generate" className="space-y-2 rounded border border-slate-200 bg-white p-4">
        <h2 className="text-lg font-medium">Generate</h2>
        <p className="text-xs text-slate-500">
          Started, submitted and skipped assignments are never removed; untouched ones outside the new plan are. The study&apos;s annotators are listed; add others on the{" "}
          <Link href={`/studies/${slug}/members`} className="text-blue-700 hover:underline">
            members page
          </Link>
          .
        </p>
        <GenerateForm slug={slug} annotators={progress.filter((p) => p.active).map((p) => ({ id: p.userId, label: p.name || p.email, checked: anyMembers ? p.member || p.total > 0 : true }))} preview={previewGeneration} generate={generate} />
      </section>

      <section aria-label="Progress">
        <h2 className="mb-2 text-lg font-medium">Progress per annotator</h2>
        <table className="w-full rounded border border-slate-200 bg-white text-left text-sm [&_td]:px-3 [&_th]:px-3">
          <thead className="bg-slate-100 text-slate-600">
            <tr>
              <th className="px-3 py-2">Annotator</th>
              <th>Overall</th>
              {TASK_PHASES.filter((t) => study.taskTypes.includes(t)).map((t) => (
                <th key={t}>{TASK_LABELS[t]}</th>
              ))}
              <th className="text-right">Skipped</th>
              <th className="text-right">Time</th>
              <th className="px-3">Move open items</th>
            </tr>
          </thead>
          <tbody>
            {progress
              .filter((p) => p.total > 0)
              .map((p) => (
                <tr key={p.userId} className="border-t border-slate-100" data-testid="progress-row">
                  <td className="px-3 py-2">
                    <Link href={`/studies/${study.slug}/annotators/${p.userId}`} className="text-blue-700 hover:underline">
                      {p.name || p.email}
                    </Link>{" "}
                    <span className="text-slate-500">{p.email}</span>
                  </td>
                  <td>
                    <ProgressBar done={p.done} total={p.total} label={`Progress of ${p.name}`} />
                  </td>
                  {TASK_PHASES.filter((t) => study.taskTypes.includes(t)).map((t) => (
                    <td key={t} className="tabular-nums">
                      {p.byTask[t] ? `${p.byTask[t]!.done} / ${p.byTask[t]!.total}` : "–"}
                    </td>
                  ))}
                  <td className="text-right tabular-nums">{p.skipped}</td>
                  <td className="text-right">{formatDuration(p.timeSpentMs)}</td>
                  <td className="px-3">
                    <ReassignForm slug={slug} fromUserId={p.userId} people={people} reassign={reassignOpen} label={`Move open assignments of ${p.name}`} />
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      </section>

      <section aria-label="Assignment list">
        <h2 className="mb-2 text-lg font-medium">Assignments ({assignments.length})</h2>
        {progress
          .filter((p) => p.total > 0)
          .map((p) => (
            <details key={p.userId} className="mb-2 rounded border border-slate-200 bg-white">
              <summary className="cursor-pointer px-3 py-1 text-sm font-medium">
                {p.name} · {p.done} / {p.total} done{p.skipped ? ` · ${p.skipped} skipped` : ""}
              </summary>
              <table className="w-full text-left text-sm">
                <thead className="text-slate-500">
                  <tr>
                    <th className="px-3">#</th>
                    <th>Item</th>
                    <th>Task</th>
                    <th>Status</th>
                    <th className="text-right">Time</th>
                    <th className="px-3">Reassign</th>
                  </tr>
                </thead>
                <tbody>
                  {assignments
                    .filter((a) => a.userId === p.userId)
                    .map((a) => (
                      <tr key={a.id} className="border-t border-slate-100" data-testid="assignment-admin-row">
                        <td className="px-3 tabular-nums">{a.position + 1}</td>
                        <td className="font-mono">
                          <Link href={`/studies/${study.slug}/items/${a.codeChange.id}?task=${a.taskType}&annotator=${a.userId}`} className="text-blue-700 hover:underline" title="Preview with these answers">
                            {a.codeChange.filePath || a.codeChange.externalId}
                          </Link>
                          {a.inReliabilitySet && <span className="ml-1 rounded bg-violet-100 px-1 font-sans text-xs text-violet-800">reliability</span>}
                        </td>
                        <td>{TASK_LABELS[a.taskType]}</td>
                        <td>
                          {STATUS_LABEL[a.status]}
                          {a.skipReason && <span className="ml-1 text-xs text-slate-500">“{a.skipReason}”</span>}
                        </td>
                        <td className="text-right">{formatDuration(a.timeSpentMs)}</td>
                        <td className="px-3">{a.status !== "DONE" && <ReassignForm slug={slug} assignmentId={a.id} fromUserId={a.userId} people={people} reassign={reassign} label="Reassign" />}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </details>
          ))}
      </section>
    </div>
  );
}
