import type { AgreementReport, QuestionAgreement } from "@/lib/analysis";
import { coefficientLabel, coefficientTable, batchesTable, confusionTable, disagreementsTable, pairwiseTable, questionId } from "./agreement-tables";
import { BatchChart } from "./charts/batch-chart";
import { DataTable } from "./data-table";
import { fileSlug } from "./table-data";

/** Everything the agreement dashboard shows for one question of one task. */
export function QuestionAgreementSection({ slug, q, settings, complete }: { slug: string; q: QuestionAgreement; settings: AgreementReport["settings"]; complete: boolean }) {
  const qid = questionId(q);
  const confusion = confusionTable(slug, q);
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
      <div className="grid gap-4 lg:grid-cols-2">
        <DataTable table={pairwiseTable(slug, q)} note={q.pairwise.method} />
        {confusion ? <DataTable table={confusion} /> : <p className="text-sm text-slate-500">No two annotators rated a common item yet: no confusion matrix.</p>}
      </div>
      <div className="space-y-2">
        <BatchChart
          label={`Agreement per batch of ${settings.batchSize} items (study order): ${q.label}`}
          series={q.coefficients.map((c) => ({ key: c.key, label: coefficientLabel(c, q.level) }))}
          points={q.batches.map((b) => ({
            batch: b.batch,
            items: b.items,
            range: `${b.firstItem} … ${b.lastItem}`,
            values: Object.fromEntries(b.coefficients.map((c) => [c.key, c.value])),
          }))}
        />
        <DataTable table={batchesTable(slug, q)} note={`Batches of ${settings.batchSize} consecutive items rated by two or more annotators; no CIs per batch.`} />
      </div>
      <DataTable table={disagreementsTable(slug, q, settings.disagreements)} note="Lowest agreement first, then the widest range. Follow an item to adjudicate it." />
    </section>
  );
}
