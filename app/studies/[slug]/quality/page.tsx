import Link from "next/link";
import { DataTable } from "@/components/dashboard/data-table";
import { content, count, text } from "@/components/dashboard/table-data";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import { PauseButton, QualitySettingsForm } from "@/components/quality-forms";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { changeItems, studyQuality } from "@/lib/data/quality";
import { pauseAnnotator, saveQualitySettings } from "./actions";
import { StudyPageHeader } from "@/components/study-page-header";

export const dynamic = "force-dynamic";

const percent = (share: number | null) => (share === null ? "–" : `${Math.round(share * 100)}%`);

/**
 * Quality control: gold items (known answers) mixed into the queues, each
 * annotator's accuracy on them, seconds per finished item with too-fast items counted, and
 * pausing an annotator who falls below the chosen accuracy.
 */
export default async function QualityPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<{ change?: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const { change } = await searchParams;
  const [quality, items] = await orPageError(Promise.all([studyQuality(account, slug), changeItems(account, slug, typeof change === "string" ? change : undefined)]));
  const { study } = quality;
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Quality control">
        <p className="text-sm text-slate-600">
          Gold items are items with a known answer: a consensus value marked gold on the adjudication page. Each annotator&apos;s queue gets {study.goldPerQueue} of them among their other items
          (after the assignments are generated again); their answers are checked against the known answer. Gold items are left out of agreement and exports unless asked for.
          {` ${quality.goldItems} gold item${quality.goldItems === 1 ? "" : "s"}, ${quality.goldAnswers.length} known answer${quality.goldAnswers.length === 1 ? "" : "s"}.`}
        </p>
        <QualitySettingsForm
          slug={study.slug}
          initial={{ goldPerQueue: study.goldPerQueue, goldMinAccuracyPercent: Math.round(study.goldMinAccuracy * 100), minSecondsPerItem: study.minSecondsPerItem }}
          save={saveQualitySettings}
        />
      </StudyPageHeader>
      <section aria-label="Annotators">
        <h2 className="mb-2 text-lg font-medium">Annotators</h2>
        <DataTable
          table={{
            label: "Annotators",
            empty: "No annotators in this study yet.",
            columns: [
              { key: "annotator", label: "Annotator", sortable: true },
              { key: "goldAnswered", label: "Gold answered", numeric: true, sortable: true },
              { key: "correct", label: "Correct", numeric: true, sortable: true },
              { key: "accuracy", label: "Accuracy", numeric: true, sortable: true },
              { key: "finished", label: "Finished items", numeric: true, sortable: true },
              { key: "seconds", label: "Seconds per item", numeric: true, sortable: true },
              { key: "tooFast", label: `Too fast (< ${study.minSecondsPerItem} s)`, numeric: true, sortable: true },
              { key: "qualificationScore", label: "Qualification score", numeric: true, sortable: true },
              { key: "qualificationAttempts", label: "Qualification attempts", numeric: true, sortable: true },
              { key: "status", label: "Status" },
            ],
            rows: quality.annotators.map((a) => ({
              key: a.annotatorId,
              data: { testid: "quality-row" },
              cells: [
                content(
                  <>
                    <Link href={`/studies/${study.slug}/annotators/${a.annotatorId}`} className="text-blue-700 hover:underline">
                      {a.name || a.email}
                    </Link>{" "}
                    <span className="text-slate-500">{a.email}</span>
                    {a.lowAccuracy && (
                      <span className="ml-2 rounded bg-red-100 px-1 text-xs text-red-800" data-testid="flag-accuracy">
                        below {percent(study.goldMinAccuracy)} on gold
                      </span>
                    )}
                    {a.pace.tooFast > 0 && (
                      <span className="ml-2 rounded bg-amber-100 px-1 text-xs text-amber-800" data-testid="flag-too-fast">
                        {a.pace.tooFast} too fast
                      </span>
                    )}
                    {a.gold && a.gold.misses.length > 0 && (
                      <details className="text-xs text-slate-600">
                        <summary className="cursor-pointer">missed gold answers</summary>
                        <ul>
                          {a.gold.misses.map((m) => (
                            <li key={`${m.item}|${m.question}`}>
                              {m.question}: answered {String(m.value)}, known {String(m.gold)}
                            </li>
                          ))}
                        </ul>
                      </details>
                    )}
                  </>,
                  { text: a.name || a.email },
                ),
                count(a.gold?.answered ?? 0),
                count(a.gold?.correct ?? 0),
                text(percent(a.gold?.accuracy ?? null), { value: a.gold?.accuracy ?? null }),
                count(a.pace.finished),
                text(a.pace.meanSeconds === null ? "–" : `${a.pace.meanSeconds.toFixed(1)} s`, { value: a.pace.meanSeconds }),
                count(a.pace.tooFast),
                text(`${percent(a.qualification.score)}${a.qualification.passed ? " passed" : a.qualification.failed ? " failed" : ""}`, { value: a.qualification.score, data: { testid: "qualification-score" } }),
                count(a.qualification.attempts),
                content(
                  <>
                    <span data-testid="status">{a.paused ? "paused" : "active"}</span>
                    <PauseButton slug={study.slug} annotatorId={a.annotatorId} name={a.name} paused={a.paused} save={pauseAnnotator} />
                  </>,
                  { text: a.paused ? "paused" : "active" },
                ),
              ],
            })),
          }}
        />
      </section>
      <section aria-label="Known answers" className="space-y-2">
        <h2 className="text-lg font-medium">Give an item a known answer</h2>
        <form method="get" className="flex items-center gap-2 text-sm">
          <label>
            Code change{" "}
            <select name="change" defaultValue={items.externalId} className="rounded border border-slate-300 px-1">
              {items.changes.map((c) => (
                <option key={c.externalId} value={c.externalId}>
                  {c.externalId} {c.filePath}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="rounded border border-slate-300 bg-white px-2 py-0.5">
            Show its items
          </button>
        </form>
        <ul className="space-y-1 text-sm">
          {items.items.map((item) => {
            const known = quality.goldAnswers.filter((g) => g.task === item.task && g.itemId === item.itemId);
            return (
              <li key={`${item.task}|${item.itemId}`}>
                <Link href={`/studies/${study.slug}/adjudicate/${item.task}/${item.itemId}`} className="text-blue-700 hover:underline">
                  {TASK_LABELS[item.task]} · {item.label}
                </Link>{" "}
                <span className="text-slate-500">{item.text.slice(0, 120)}</span>
                {known.length > 0 && <span className="ml-2 rounded bg-emerald-100 px-1 text-xs text-emerald-800">gold: {known.map((g) => `${g.question} = ${String(g.value)}`).join(", ")}</span>}
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
