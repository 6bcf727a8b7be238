import { DataTable } from "@/components/dashboard/data-table";
import { content, text } from "@/components/dashboard/table-data";
import { AccountButton, AccountPasswordForm, CreateAccountForm } from "@/components/account-forms";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { listAccounts } from "@/lib/data/accounts";
import { activateAccount, createAccount, deactivateAccount, reactivateAccount, resetPassword } from "./actions";

export const dynamic = "force-dynamic";

export default async function AccountsPage() {
  const lead = await requirePageAccount(LEAD_ROLES);
  const accounts = await listAccounts(lead);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Accounts</h1>
      <p className="text-sm text-slate-600">
        {lead.role === "ADMIN" ? "Admins manage every account." : "Leads manage the annotator accounts of their studies and those not in any study yet."} A new password
        or a deactivation signs the account out everywhere.
      </p>
      <CreateAccountForm submit={createAccount} allowLeadRoles={lead.role === "ADMIN"} />
      <DataTable
        table={{
          label: "Accounts",
          columns: [
            { key: "email", label: "Email" },
            { key: "name", label: "Name" },
            { key: "role", label: "Role" },
            { key: "status", label: "Status" },
            { key: "actions", label: "Actions" },
          ],
          rows: accounts.map((account) => ({
            key: account.id,
            data: { testid: "account-row" },
            cells: [
              text(account.email, { mono: true }),
              text(account.name),
              text(account.role.toLowerCase()),
              text(account.active ? "active" : account.hasPassword ? "deactivated" : "not activated"),
              content(
                <div className="flex flex-wrap gap-2">
                  {!account.hasPassword ? (
                    <AccountPasswordForm submit={activateAccount} accountId={account.id} label="Activate" success="Activated." />
                  ) : (
                    <>
                      <AccountPasswordForm submit={resetPassword} accountId={account.id} label="Reset password" success="Password changed." />
                      {account.active && account.id !== lead.id && <AccountButton submit={deactivateAccount} accountId={account.id} label="Deactivate" success="Deactivated." />}
                      {!account.active && <AccountButton submit={reactivateAccount} accountId={account.id} label="Reactivate" success="Reactivated." />}
                    </>
                  )}
                </div>,
              ),
            ],
          })),
        }}
      />
    </div>
  );
}
