import { AccountButton, AccountPasswordForm, CreateAccountForm } from "@/components/account-forms";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
import { listAccounts } from "@/lib/data/accounts";
import { activateAccount, createAccount, deactivateAccount, reactivateAccount, resetPassword } from "./actions";

export const dynamic = "force-dynamic";

export default async function AccountsPage() {
  const user = await requirePageUser(LEAD_ROLES);
  const accounts = await listAccounts(user);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Accounts</h1>
      <p className="text-sm text-slate-600">
        {user.role === "ADMIN" ? "Admins manage every account." : "Leads manage the annotator accounts of their studies and those not in any study yet."} A new password
        or a deactivation signs the account out everywhere.
      </p>
      <CreateAccountForm submit={createAccount} allowLeadRoles={user.role === "ADMIN"} />
      <table className="w-full rounded border border-slate-200 bg-white text-left text-sm">
        <thead className="bg-slate-100 text-slate-600">
          <tr>
            <th className="px-3 py-2">Email</th>
            <th>Name</th>
            <th>Role</th>
            <th>Status</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((account) => (
            <tr key={account.id} className="border-t border-slate-100" data-testid="account-row">
              <td className="px-3 py-2 font-mono">{account.email}</td>
              <td>{account.name}</td>
              <td>{account.role.toLowerCase()}</td>
              <td>{account.active ? "active" : account.hasPassword ? "deactivated" : "not activated"}</td>
              <td className="flex flex-wrap gap-2 py-1">
                {!account.hasPassword ? (
                  <AccountPasswordForm submit={activateAccount} userId={account.id} label="Activate" success="Activated." />
                ) : (
                  <>
                    <AccountPasswordForm submit={resetPassword} userId={account.id} label="Reset password" success="Password changed." />
                    {account.active && account.id !== user.id && <AccountButton submit={deactivateAccount} userId={account.id} label="Deactivate" success="Deactivated." />}
                    {!account.active && <AccountButton submit={reactivateAccount} userId={account.id} label="Reactivate" success="Reactivated." />}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
