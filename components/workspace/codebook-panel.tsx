/** The built-in codebook of each task, from the papers, shown under the study's own guidelines. */
import type { TaskType } from "@/lib/generated/prisma/enums";
import { CLAIM_CODE_INFO, COMMENT_FILTER_LABELS, ERROR_TYPE_INFO, LIKERT_RULES, REFERENCE_GRADES } from "@/lib/annotation/codebook";

export function CodebookPanel({ taskType, dimensions }: { taskType: TaskType; dimensions: string[] }) {
  switch (taskType) {
    case "CLAIM_VERIFICATION":
      return (
        <div className="space-y-2 text-xs">
          <h4 className="font-semibold">Claim codes (CRScore Table 8)</h4>
          <table className="w-full">
            <tbody>
              {CLAIM_CODE_INFO.map((c) => (
                <tr key={c.code} className="border-t border-slate-100 align-top">
                  <td className="pr-2 font-mono">{c.value}</td>
                  <td className="pr-2 font-medium">{c.label}</td>
                  <td>{c.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h4 className="font-semibold">Error types (CRScore Table 12)</h4>
          <table className="w-full">
            <tbody>
              {ERROR_TYPE_INFO.map((t) => (
                <tr key={t.type} className="border-t border-slate-100 align-top">
                  <td className="pr-2 font-mono">e{t.key}</td>
                  <td className="pr-2 font-medium">{t.label}</td>
                  <td>{t.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case "REVIEW_RATING":
      return (
        <div className="space-y-2 text-xs">
          <h4 className="font-semibold">Rules of thumb (CRScore Table 7)</h4>
          {dimensions.map((d) => (
            <div key={d}>
              <p className="font-medium capitalize">{d}</p>
              {LIKERT_RULES[d] ? (
                Object.keys(LIKERT_RULES[d].scores).length ? (
                  <ol className="list-none">
                    {Object.entries(LIKERT_RULES[d].scores).map(([s, t]) => (
                      <li key={s}>
                        <span className="font-mono">{s}</span> {t}
                      </li>
                    ))}
                  </ol>
                ) : (
                  <p>{LIKERT_RULES[d].summary}</p>
                )
              ) : (
                <p>See the study guidelines.</p>
              )}
            </div>
          ))}
        </div>
      );
    case "REFERENCE_GRADING":
      return (
        <div className="space-y-1 text-xs">
          <h4 className="font-semibold">Grades (GradedReviews §4.3)</h4>
          {REFERENCE_GRADES.map((g) => (
            <p key={g.grade}>
              <span className="font-mono">{g.grade}</span> <strong>{g.label}</strong>: {g.description}
            </p>
          ))}
        </div>
      );
    case "COMMENT_FILTERING":
      return (
        <div className="space-y-1 text-xs">
          <h4 className="font-semibold">Labels (c-CRAB §4.2.1)</h4>
          <p>
            <strong>{COMMENT_FILTER_LABELS.high.label}</strong>: {COMMENT_FILTER_LABELS.high.description}
          </p>
          <p>
            <strong>{COMMENT_FILTER_LABELS.low.label}</strong>: {COMMENT_FILTER_LABELS.low.description}
          </p>
        </div>
      );
  }
}
