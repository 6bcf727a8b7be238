import type { JudgeAgreement } from "@/lib/analysis/judge-agreement";
import type { QuestionAgreement } from "@/lib/analysis";
import { questionId } from "./agreement-tables";
import { JudgeKappaChart } from "./charts/judge-kappa-chart";
import { DataTable } from "./data-table";
import { judgeConsensusTable, judgeKappaBars, judgeKappaTable, judgePerAnnotatorTable } from "./judges-tables";

/** The "Judges" section of a question a judge answered: judges against the annotators (SWE-Judge §5.2, Figure 4) and against the consensus. */
export function JudgesSection({ slug, q, judges }: { slug: string; q: Pick<QuestionAgreement, "task" | "question" | "label">; judges: JudgeAgreement }) {
  return (
    <section aria-label={`Judges: ${q.label}`} data-testid={`judges-${questionId(q)}`} className="space-y-3 rounded border border-rose-200 bg-white p-3">
      <h4 className="text-sm font-semibold">Judges</h4>
      <p className="text-xs text-slate-600">
        Annotators in pairs against each judge with each annotator, as SWE-Judge §5.2 (Figure 4) compares them. Judges are never part of Human–Human. {judges.method}.
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        <JudgeKappaChart bars={judgeKappaBars(judges)} label={`Human–Human against Human–Judge κ: ${q.label}`} />
        <DataTable table={judgeKappaTable(slug, q, judges)} />
      </div>
      <DataTable table={judgePerAnnotatorTable(slug, q, judges)} />
      <DataTable table={judgeConsensusTable(slug, q, judges)} note="The consensus is the lead's decision, else the unanimous answer of the annotators and opted-in judges (gold answers included). Precision, recall and F1 are of the positive answer (c-CRAB §4.2.1's precision threshold)." />
    </section>
  );
}
