import Link from "next/link";
import { StudySettingsForm } from "@/components/study-settings-form";
import { crscoreCodebookTemplate } from "@/lib/annotation/guidelines-template";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { editableSettings, getStudySettings } from "@/lib/data/study-settings";
import { orPageError } from "@/lib/errors/page";
import { saveStudySettings } from "./actions";

export const dynamic = "force-dynamic";

/** The study's settings: what annotators see and how their work is planned, edited without invalidating stored work. */
export default async function StudySettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { study, usage } = await orPageError(getStudySettings(account, (await params).slug));
  return (
    <div className="space-y-4">
      <div>
        <p className="text-sm">
          <Link href={`/studies/${study.slug}`} prefetch={false} className="text-blue-700 underline">
            {study.name}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Study settings</h1>
        <p className="text-sm text-slate-600">
          A change that would invalidate stored annotations (removing a task or a Likert dimension that has answers, changing the scale of scored ratings) is refused, with the number of
          answers it would affect.
        </p>
      </div>
      <StudySettingsForm
        slug={study.slug}
        initial={editableSettings(study)}
        usage={usage}
        template={crscoreCodebookTemplate()}
        save={saveStudySettings}
      />
    </div>
  );
}
