import { ActivateAccountForm, CreateAccountForm } from "@/components/account-forms";
import { LEAD_ROLES, requirePageUser } from "@/lib/auth/session";
import { listAccounts } from "@/lib/data/accounts";
import { activateAccount, createAccount } from "./actions";

export const dynamic = "force-dynamic";

export default async function AccountsPage() {
  const user = await requirePageUser(LEAD_ROLES);
  const accounts = await listAccounts();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Accounts</h1>
      <CreateAccountForm submit={createAccount} allowLeadRoles={user.role === "ADMIN"} />
      <table className="w-full rounded border border-slate-200 bg-white text-left text-sm">
        <thead className="bg-slate-100 text-slate-600">
          <tr>
            <th className="px-3 py-2">Email</th>
            <th>Name</th>
            <th>Role</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((account) => (
            <tr key={account.id} className="border-t border-slate-100" data-testid="account-row">
              <td className="px-3 py-2 font-mono">{account.email}</td>
              <td>{account.name}</td>
              <td>{account.role.toLowerCase()}</td>
              <td>{account.active ? "active" : <ActivateAccountForm submit={activateAccount} userId={account.id} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
