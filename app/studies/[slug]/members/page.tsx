import { DataTable } from "@/components/dashboard/data-table";
import { content, count, text } from "@/components/dashboard/table-data";
import { AddMemberForm, RemoveMemberButton } from "@/components/member-forms";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { listStudyMembers } from "@/lib/data/study-members";
import { addMember, removeMember } from "./actions";
import { StudyPageHeader } from "@/components/study-page-header";

export const dynamic = "force-dynamic";

/** Who belongs to the study: its leads see and change it, its annotators label their own assignments. */
export default async function StudyMembersPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const list = await orPageError(listStudyMembers(account, slug));
  const { study, members } = list;
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Members">
        <p className="text-sm text-slate-600">
          The study&apos;s leads see and change it (settings, imports, exports, assignments, reports); its annotators see only their own assignments. Generating or reassigning assignments adds annotators. The owner
          cannot be removed. Removing someone keeps their assignments and annotations.
          {account.role !== "ADMIN" && " You can add annotators who belong to none of another lead's studies, or to one of yours already; an admin adds the others, and study leads."}
        </p>
      </StudyPageHeader>
      <AddMemberForm slug={study.slug} add={addMember} canAddLeads={account.role === "ADMIN"} />
      <DataTable
        table={{
          label: "Members",
          columns: [
            { key: "member", label: "Member" },
            { key: "role", label: "Role in the study" },
            { key: "account", label: "Account" },
            { key: "assignments", label: "Assignments", numeric: true },
            { key: "actions", label: "Actions", end: true },
          ],
          rows: members.map((m) => ({
            key: m.accountId,
            data: { testid: "member-row" },
            cells: [
              content(
                <>
                  {m.name} <span className="text-slate-500">{m.email}</span>
                </>,
              ),
              text(m.owner ? "owner" : m.role.toLowerCase()),
              content(
                <>
                  {m.accountRole.toLowerCase()}
                  {!m.active && <span className="ml-2 rounded bg-amber-100 px-1 text-xs text-amber-800">inactive</span>}
                </>,
              ),
              count(m.assignments),
              content(!m.owner && <RemoveMemberButton slug={study.slug} accountId={m.accountId} label={`Remove ${m.name || m.email}`} remove={removeMember} />),
            ],
          })),
        }}
      />
    </div>
  );
}
