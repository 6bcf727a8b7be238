/** The built-in codebook of each task, from the papers, shown under the study's own guidelines. */
import { DataTable } from "@/components/dashboard/data-table";
import { text } from "@/components/dashboard/table-data";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { CLAIM_CODE_INFO, COMMENT_FILTER_LABELS, ERROR_TYPE_INFO, LIKERT_RULES, REFERENCE_GRADES } from "@/lib/annotation/codebook";

export function CodebookPanel({ task, dimensions }: { task: TaskType; dimensions: string[] }) {
  switch (task) {
    case "CLAIM_VERIFICATION":
      return (
        <div className="space-y-2 text-xs">
          <h4 className="font-semibold">Claim codes (CRScore Table 8)</h4>
          <DataTable
            table={{
              label: "Claim codes",
              columns: [
                { key: "value", label: "Code" },
                { key: "label", label: "Name" },
                { key: "description", label: "Definition" },
              ],
              rows: CLAIM_CODE_INFO.map((c) => ({ key: c.code, cells: [text(String(c.value), { mono: true }), text(c.label), text(c.description)] })),
            }}
          />
          <h4 className="font-semibold">Error types (CRScore Table 12)</h4>
          <DataTable
            table={{
              label: "Error types",
              columns: [
                { key: "key", label: "Key" },
                { key: "label", label: "Name" },
                { key: "description", label: "Definition" },
              ],
              rows: ERROR_TYPE_INFO.map((t) => ({ key: t.type, cells: [text(`e${t.key}`, { mono: true }), text(t.label), text(t.description)] })),
            }}
          />
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
