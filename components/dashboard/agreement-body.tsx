import type { AgreementReport } from "@/lib/analysis";
import { claimQualityTable, questionId, taskLabel } from "./agreement-tables";
import { DataTable } from "./data-table";
import { ItemSetNote } from "./item-set";
import { QuestionAgreementSection } from "./question-agreement";

/** The agreement report's sections; `complete` false while the bootstrap CIs are still being computed. */
export function AgreementBody({ slug, report, complete, progress }: { slug: string; report: AgreementReport; complete: boolean; progress?: string }) {
  const drafts = report.tasks.flatMap((t) => t.questions).reduce((n, q) => Math.max(n, q.counts.draftsLeftOut), 0);
  return (
    <div className="space-y-6" data-testid="agreement-report" data-complete={complete ? "true" : "false"}>
      {!complete && (
        <p role="status" className="rounded border border-slate-200 bg-white p-2 text-sm text-slate-600">
          {progress ?? "Computing bootstrap confidence intervals…"} The point estimates below are final.
        </p>
      )}
      <section aria-label="Items" className="space-y-1 rounded border border-slate-200 bg-white p-3 text-sm">
        <ItemSetNote itemSet={report.itemSet} />
        <p className="text-xs text-slate-600" data-testid="counted">
          Counts {report.settings.counted}
          {drafts > 0 ? ` (up to ${drafts} draft ratings per question left out)` : ""}.
        </p>
        <p className="text-xs text-slate-600" data-testid="reliability-set">
          {report.settings.reliabilitySet
            ? `Reliability set: “${report.settings.reliabilitySet.name}” (${report.settings.reliabilitySet.size} ids), as the study design stores it.`
            : "This study has no reliability set: generating assignments with a reliability set size stores one, or a lead gives one as a file on the item sets page."}
        </p>
      </section>
      {report.tasks.map((t) => (
        <section key={t.task} aria-label={taskLabel(t.task)} data-testid={`task-${t.task}`} className="space-y-4">
          <h2 className="text-xl font-medium">{taskLabel(t.task)}</h2>
          {t.questions.length > 1 && (
            <p className="flex flex-wrap gap-3 text-sm">
              {t.questions.map((q) => (
                <a key={q.question} href={`#q-${questionId(q)}`} className="text-blue-700 hover:underline">
                  {q.label}
                </a>
              ))}
            </p>
          )}
          {t.claimQuality && <DataTable table={claimQualityTable(slug, t.claimQuality)} note={`Verdict policy: ${t.claimQuality.rule}. Verdicts: ${Object.entries(t.claimQuality.verdicts)
                .filter(([, n]) => n > 0)
                .map(([source, n]) => `${n} ${source}`)
                .join(", ")}. Counts ${t.claimQuality.counted}. Missing rate: claims added by annotators over judged claims.`} />}
          {t.questions.length === 0 && <p className="text-sm text-slate-500">No annotations yet.</p>}
          {t.questions.map((q) => (
            <QuestionAgreementSection key={q.question} slug={slug} q={q} settings={report.settings} complete={complete} />
          ))}
        </section>
      ))}
    </div>
  );
}
