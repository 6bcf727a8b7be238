import type { AgreementReport, QuestionAgreement } from "@/lib/analysis";
import { coefficientTable, questionId } from "./agreement-tables";
import { DataTable } from "./data-table";
import { JudgesSection } from "./judges-section";
import { QuestionDetails } from "./question-details";
import { fileSlug } from "./table-data";

/** Everything the agreement dashboard shows for one question of one task: its coefficients, and its details on demand. */
export function QuestionAgreementSection({ slug, q, settings, complete }: { slug: string; q: QuestionAgreement; settings: AgreementReport["settings"]; complete: boolean }) {
  const qid = questionId(q);
  return (
    <section aria-label={`${q.task} ${q.question}`} data-testid={`question-${qid}`} className="space-y-4 rounded border border-slate-200 bg-slate-50 p-3">
      <header>
        <h3 className="text-base font-semibold" id={`q-${qid}`}>
          {q.label}
        </h3>
        <p className="text-xs text-slate-600">
          {q.level} scale: {q.scale.join(", ")} · {q.counts.items} items, {q.counts.ratings} ratings by {q.counts.raters} annotators, {q.counts.itemsWithTwoOrMoreRatings} items rated by two or more
          {q.counts.excludedOffScale > 0 ? ` · ${q.counts.excludedOffScale} ratings off the scale left out` : ""}
          {q.counts.draftsLeftOut > 0 ? ` · ${q.counts.draftsLeftOut} draft ratings left out` : ""}
        </p>
      </header>
      <DataTable table={coefficientTable(`coefficients-${qid}`, "Agreement coefficients", fileSlug(slug, "agreement", qid, "coefficients"), q.coefficients, q.level, settings, !complete)} />
      {q.reliabilitySet && (
        <DataTable
          table={coefficientTable(`reliability-${qid}`, `Reliability set (${q.reliabilitySet.items} items, ${q.reliabilitySet.firstItem} … ${q.reliabilitySet.lastItem})`, fileSlug(slug, "agreement", qid, "reliability-set"), q.reliabilitySet.coefficients, q.level, settings, !complete)}
          note={`Rule: ${q.reliabilitySet.rule}`}
        />
      )}
      {q.judges && <JudgesSection slug={slug} q={q} judges={q.judges} />}
      <QuestionDetails slug={slug} q={q} settings={settings} />
    </section>
  );
}
