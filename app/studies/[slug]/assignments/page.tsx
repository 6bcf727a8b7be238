import Link from "next/link";
import { DataTable } from "@/components/dashboard/data-table";
import { content, count, text } from "@/components/dashboard/table-data";
import { ReliabilityBadge } from "@/components/reliability-badge";
import { StudyPageHeader } from "@/components/study-page-header";
import { formatDuration } from "@/components/format";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { getAssignmentAdmin, STATUS_LABEL } from "@/lib/data/assignment-admin";
import { TASK_PHASES } from "@/lib/annotation/assignment-plan";
import { generate, previewGeneration, reassign, reassignOpen, saveSettings } from "./actions";
import { GenerateForm, ReassignForm, SettingsForm } from "./forms";

export const dynamic = "force-dynamic";

export default async function AssignmentsPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const admin = await orPageError(getAssignmentAdmin(account, slug));
  const { study, items, progress, assignments } = admin;
  const people = progress.filter((p) => p.active).map((p) => ({ id: p.annotatorId, label: p.name || p.email }));
  const anyMembers = progress.some((p) => p.member || p.total > 0);
  const tasks = TASK_PHASES.filter((t) => study.tasks.includes(t));
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Assignments">
        <p className="text-sm text-slate-600">
          {items} code changes · tasks: {study.tasks.map((t) => TASK_LABELS[t]).join(", ")}. The order of each queue is a seeded shuffle: the same settings always give the same assignments. Claim verification of
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
        <GenerateForm slug={slug} annotators={progress.filter((p) => p.active).map((p) => ({ id: p.annotatorId, label: p.name || p.email, checked: anyMembers ? p.member || p.total > 0 : true }))} preview={previewGeneration} generate={generate} />
      </section>

      <section aria-label="Progress">
        <h2 className="mb-2 text-lg font-medium">Progress per annotator</h2>
        <DataTable
          table={{
            label: "Progress per annotator",
            columns: [
              { key: "annotator", label: "Annotator", sortable: true },
              { key: "overall", label: "Overall", sortable: true },
              ...tasks.map((t) => ({ key: t, label: TASK_LABELS[t] })),
              { key: "skipped", label: "Skipped", numeric: true, sortable: true },
              { key: "time", label: "Time", numeric: true, sortable: true },
              { key: "move", label: "Move open items" },
            ],
            rows: progress
              .filter((p) => p.total > 0)
              .map((p) => ({
                key: p.annotatorId,
                data: { testid: "progress-row" },
                cells: [
                  content(
                    <>
                      <Link href={`/studies/${study.slug}/annotators/${p.annotatorId}`} className="text-blue-700 hover:underline">
                        {p.name || p.email}
                      </Link>{" "}
                      <span className="text-slate-500">{p.email}</span>
                    </>,
                    { text: p.name || p.email },
                  ),
                  { text: "", progress: { done: p.done, total: p.total, label: `Progress of ${p.name}` } },
                  ...tasks.map((t) => text(p.byTask[t] ? `${p.byTask[t]!.done} / ${p.byTask[t]!.total}` : "–")),
                  count(p.skipped),
                  text(formatDuration(p.timeSpentMs), { value: p.timeSpentMs }),
                  content(<ReassignForm slug={slug} fromAnnotatorId={p.annotatorId} people={people} reassign={reassignOpen} label={`Move open assignments of ${p.name}`} />),
                ],
              })),
          }}
        />
      </section>

      <section aria-label="Assignment list">
        <h2 className="mb-2 text-lg font-medium">Assignments ({assignments.length})</h2>
        {progress
          .filter((p) => p.total > 0)
          .map((p) => (
            <details key={p.annotatorId} className="mb-2 rounded border border-slate-200 bg-white">
              <summary className="cursor-pointer px-3 py-1 text-sm font-medium">
                {p.name} · {p.done} / {p.total} done{p.skipped ? ` · ${p.skipped} skipped` : ""}
              </summary>
              <DataTable
                table={{
                  label: `Assignments of ${p.name || p.email}`,
                  columns: [
                    { key: "position", label: "#", numeric: true },
                    { key: "item", label: "Item" },
                    { key: "task", label: "Task" },
                    { key: "status", label: "Status" },
                    { key: "time", label: "Time", numeric: true },
                    { key: "reassign", label: "Reassign" },
                  ],
                  rows: assignments
                    .filter((a) => a.annotatorId === p.annotatorId)
                    .map((a) => ({
                      key: a.id,
                      data: { testid: "assignment-admin-row" },
                      cells: [
                        count(a.position + 1),
                        content(
                          <>
                            <Link href={`/studies/${study.slug}/items/${a.codeChange.id}?task=${a.task}&annotator=${a.annotatorId}`} className="font-mono text-blue-700 hover:underline" title="Preview with these answers">
                              {a.codeChange.filePath || a.codeChange.externalId}
                            </Link>
                            {a.inReliabilitySet && <ReliabilityBadge />}
                          </>,
                        ),
                        text(TASK_LABELS[a.task]),
                        content(
                          <>
                            {STATUS_LABEL[a.status]}
                            {a.skipReason && <span className="ml-1 text-xs text-slate-500">“{a.skipReason}”</span>}
                          </>,
                        ),
                        text(formatDuration(a.timeSpentMs)),
                        content(a.status !== "DONE" && <ReassignForm slug={slug} assignmentId={a.id} fromAnnotatorId={a.annotatorId} people={people} reassign={reassign} label="Reassign" />),
                      ],
                    })),
                }}
              />
            </details>
          ))}
      </section>
    </div>
  );
}
