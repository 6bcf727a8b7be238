import Link from "next/link";
import { TASK_LABELS } from "@/components/format";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
import { listStudiesWithCounts } from "@/lib/data/study-overview";

export const dynamic = "force-dynamic";

export default async function LeadHome() {
  const user = await requirePageUser(LEAD_ROLES);
  const studies = await listStudiesWithCounts(user);
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
      {studies.length === 0 && <p className="text-slate-600">No studies yet: create one, or import one.</p>}
      <table className="w-full rounded border border-slate-200 bg-white text-left text-sm [&_td]:px-3 [&_th]:px-3">
        <thead className="bg-slate-100 text-slate-600">
          <tr>
            <th className="px-3 py-2">Study</th>
            <th>Tasks</th>
            <th className="text-right">Code changes</th>
            <th className="text-right">Reviews</th>
            <th className="text-right">Assignments done</th>
            <th className="px-3 text-right">Members</th>
          </tr>
        </thead>
        <tbody>
          {studies.map((study) => (
            <tr key={study.id} className="border-t border-slate-100" data-testid="study-row">
              <td className="px-3 py-2">
                <Link href={`/studies/${study.slug}`} className="font-medium underline">
                  {study.name}
                </Link>
              </td>
              <td>{study.taskTypes.map((t) => TASK_LABELS[t]).join(", ")}</td>
              <td className="text-right tabular-nums">{study._count.codeChanges}</td>
              <td className="text-right tabular-nums">{study.reviews}</td>
              <td className="text-right tabular-nums">
                {study.assignmentsDone} / {study._count.assignments}
              </td>
              <td className="px-3 text-right tabular-nums">{study._count.members}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
