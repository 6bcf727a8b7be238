import { AddMemberForm, RemoveMemberButton } from "@/components/member-forms";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { listStudyMembers } from "@/lib/data/study-members";
import { addMember, removeMember } from "./actions";
import { StudyPageHeader } from "@/components/study-page-header";

export const dynamic = "force-dynamic";

/** Who belongs to the study: its leads see and change it, its annotators label their own assignments. */
export default async function StudyMembersPage({ params }: { params: Promise<{ slug: string }> }) {
  const user = await requirePageUser(LEAD_ROLES);
  const { slug } = await params;
  const list = await orPageError(listStudyMembers(user, slug));
  const { study, members } = list;
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Members">
        <p className="text-sm text-slate-600">
          The study&apos;s leads see and change it (settings, imports, exports, assignments, reports); its annotators see only their own assignments. Generating or reassigning assignments adds annotators. The owner
          cannot be removed. Removing someone keeps their assignments and annotations.
          {user.role !== "ADMIN" && " You can add annotators who belong to none of another lead's studies, or to one of yours already; an admin adds the others, and study leads."}
        </p>
      </StudyPageHeader>
      <AddMemberForm slug={study.slug} add={addMember} canAddLeads={user.role === "ADMIN"} />
      <table className="w-full rounded border border-slate-200 bg-white text-left text-sm">
        <thead className="bg-slate-100 text-slate-600">
          <tr>
            <th className="px-3 py-2">Member</th>
            <th>Role in the study</th>
            <th>Account</th>
            <th className="text-right">Assignments</th>
            <th className="px-3" />
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.userId} className="border-t border-slate-100" data-testid="member-row">
              <td className="px-3 py-2">
                {m.name} <span className="text-slate-500">{m.email}</span>
              </td>
              <td>{m.owner ? "owner" : m.role.toLowerCase()}</td>
              <td>
                {m.accountRole.toLowerCase()}
                {!m.active && <span className="ml-2 rounded bg-amber-100 px-1 text-xs text-amber-800">inactive</span>}
              </td>
              <td className="text-right tabular-nums">{m.assignments}</td>
              <td className="px-3 text-right">{!m.owner && <RemoveMemberButton slug={study.slug} userId={m.userId} label={`Remove ${m.name || m.email}`} remove={removeMember} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
