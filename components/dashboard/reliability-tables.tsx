import { DataTable } from "./data-table";
import { content, count, fileSlug, text } from "./table-data";
import type { QuestionReliability } from "@/lib/data/adjudication";
import type { ConsensusShare } from "@/lib/analysis/reliability";

const pct = (v: number | null) => (v === null ? "–" : `${(v * 100).toFixed(0)}%`);

/** What "with consensus" compares with, said wherever the share is shown. */
export const CONSENSUS_RULE =
  "the item's consensus without the annotator's own answer: the lead's adjudicated value, else the value two or more other annotators all gave. Items whose only consensus is unanimity that includes the annotator's own answer (with two annotators, every unanimous item) are left out: they would count as agreement by construction.";

/** The share with its counts, and why there is none. */
export function ConsensusShareText({ share }: { share: ConsensusShare }) {
  const leftOut = share.leftOut > 0 ? `${share.leftOut} left out` : "";
  return (
    <span data-testid="with-consensus" data-agree={share.agree} data-n={share.n} data-left-out={share.leftOut}>
      {pct(share.value)}
      <span className="block text-xs text-slate-600">
        {share.n === 0 ? `no item with a consensus apart from this annotator's answer${leftOut ? ` (${leftOut})` : ""}` : `${share.agree} of ${share.n}${leftOut ? `, ${leftOut}` : ""}`}
      </span>
    </span>
  );
}

/** Why an annotator has no Dawid-Skene competence. */
export const noCompetenceReason = (level: string) => (level === "nominal" ? "needs two annotators" : "categorical questions only");

/** Per question: each annotator's agreement with the consensus and with each other annotator, and their Dawid-Skene competence. */
export function ReliabilityTables({ title, questions }: { title: string; questions: QuestionReliability[] }) {
  return (
    <section aria-label={`Annotator reliability: ${title}`} className="space-y-3">
      <h2 className="text-lg font-medium">Annotator reliability: {title}</h2>
      <p className="text-xs text-slate-600">With consensus: the share of an annotator&apos;s answers equal to {CONSENSUS_RULE}</p>
      {questions.map(({ question, annotators }) => (
        <DataTable
          key={question.key}
          table={{
            id: `reliability-${question.key}`,
            title: question.label,
            filename: fileSlug("reliability", title, question.key),
            columns: [
              { key: "annotator", label: "Annotator", sortable: true },
              { key: "items", label: "Items", numeric: true, sortable: true },
              {
                key: "consensus",
                label: "With consensus",
                numeric: true,
                sortable: true,
                title: "Share of answers equal to the item's consensus without the annotator's own answer (adjudicated, or unanimous among two or more others)",
              },
              { key: "others", label: "With each other annotator" },
              { key: "competence", label: "Competence", numeric: true, sortable: true, title: "Dawid-Skene (1979): estimated probability of giving the true class; categorical questions only" },
            ],
            rows: annotators.map((a) => ({
              key: a.rater,
              data: { testid: "reliability-row" },
              cells: [
                text(a.name),
                count(a.items),
                content(<ConsensusShareText share={a.withConsensus} />, { value: a.withConsensus.value }),
                text(a.withOthers.map((o) => `${o.rater} ${pct(o.share.value)} (n=${o.share.n})`).join(" · ")),
                content(a.competence === null ? <span className="text-xs text-slate-600">– ({noCompetenceReason(question.level)})</span> : a.competence.toFixed(3), { value: a.competence }),
              ],
            })),
          }}
        />
      ))}
    </section>
  );
}
