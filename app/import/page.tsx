import { ImportForm } from "@/components/import/import-form";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** Import into a new or existing study. */
export default async function NewImportPage() {
  await requirePageAccount(LEAD_ROLES);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Import study data</h1>
      <p className="text-sm text-slate-600">The study is created when it does not exist. Every import runs in one transaction: all of it is written or nothing. See docs/jsonl-format.md for the formats.</p>
      <ImportForm />
    </div>
  );
}
