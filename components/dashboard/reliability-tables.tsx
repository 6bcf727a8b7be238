import type { QuestionReliability } from "@/lib/data/adjudication";

const pct = (v: number | null) => (v === null ? "–" : `${(v * 100).toFixed(0)}%`);

/** Per question: each annotator's agreement with the consensus and with each other annotator, and their Dawid-Skene competence. */
export function ReliabilityTables({ title, questions }: { title: string; questions: QuestionReliability[] }) {
  return (
    <section aria-label={`Annotator reliability: ${title}`} className="space-y-3">
      <h2 className="text-lg font-medium">Annotator reliability: {title}</h2>
      {questions.map(({ question, annotators }) => (
        <table key={question.key} className="w-full rounded border border-slate-200 bg-white text-left text-sm" data-testid={`reliability-${question.key}`}>
          <caption className="px-3 py-1 text-left font-medium">{question.label}</caption>
          <thead className="bg-slate-100 text-slate-600">
            <tr>
              <th className="px-3 py-2">Annotator</th>
              <th className="text-right">Items</th>
              <th className="text-right" title="Share of answers equal to the item's consensus (adjudicated or unanimous)">
                With consensus
              </th>
              <th className="px-3">With each other annotator</th>
              <th className="px-3 text-right" title="Dawid-Skene (1979): estimated probability of giving the true class; categorical questions only">
                Competence
              </th>
            </tr>
          </thead>
          <tbody>
            {annotators.map((a) => (
              <tr key={a.rater} className="border-t border-slate-100" data-testid="reliability-row">
                <td className="px-3 py-2">{a.name}</td>
                <td className="text-right tabular-nums">{a.items}</td>
                <td className="text-right tabular-nums" title={`${a.withConsensus.agree} of ${a.withConsensus.n}`}>
                  {pct(a.withConsensus.value)}
                </td>
                <td className="px-3">{a.withOthers.map((o) => `${o.rater} ${pct(o.share.value)} (n=${o.share.n})`).join(" · ")}</td>
                <td className="px-3 text-right tabular-nums">{a.competence === null ? "–" : a.competence.toFixed(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </section>
  );
}
