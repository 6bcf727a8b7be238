import Link from "next/link";
import { DataTable } from "@/components/dashboard/data-table";
import { count, text } from "@/components/dashboard/table-data";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { listStudiesWithCounts } from "@/lib/data/study-overview";

export const dynamic = "force-dynamic";

export default async function LeadHome() {
  const account = await requirePageAccount(LEAD_ROLES);
  const studies = await listStudiesWithCounts(account);
  return (
    <div className="space-y-4">
      <div className="flex items-baseline gap-4">
        <h1 className="text-2xl font-semibold">Studies</h1>
        <Link href="/studies/new" prefetch={false} className="text-sm text-blue-700 hover:underline">
          New study
        </Link>
        <Link href="/import" className="text-sm text-blue-700 hover:underline">
          Import study data
        </Link>
      </div>
      <DataTable
        table={{
          label: "Studies",
          empty: "No studies yet: create one, or import one.",
          columns: [
            { key: "study", label: "Study", sortable: true },
            { key: "tasks", label: "Tasks" },
            { key: "changes", label: "Code changes", numeric: true, sortable: true },
            { key: "reviews", label: "Reviews", numeric: true, sortable: true },
            { key: "done", label: "Assignments done", numeric: true },
            { key: "members", label: "Members", numeric: true, sortable: true },
          ],
          rows: studies.map((study) => ({
            key: study.id,
            data: { testid: "study-row" },
            cells: [
              text(study.name, { href: `/studies/${study.slug}` }),
              text(study.tasks.map((t) => TASK_LABELS[t]).join(", ")),
              count(study._count.codeChanges),
              count(study.reviews),
              text(`${study.assignmentsDone} / ${study._count.assignments}`),
              count(study._count.members),
            ],
          })),
        }}
      />
    </div>
  );
}
