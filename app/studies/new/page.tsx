import { NewStudyForm } from "@/components/new-study-form";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { createNewStudy } from "./actions";

export const dynamic = "force-dynamic";

/** A new, empty study: its data comes by import afterwards, its annotators on the members page. */
export default async function NewStudyPage() {
  await requirePageAccount(LEAD_ROLES);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">New study</h1>
      <p className="text-sm text-slate-600">
        The study starts empty: import its code changes, claims and reviews from its page, then add annotators and generate their assignments. Everything here can be changed later in the study&apos;s settings, except the
        slug, which names the study in its address, the command line and exported files.
      </p>
      <NewStudyForm create={createNewStudy} />
    </div>
  );
}
