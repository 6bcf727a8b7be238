import Link from "next/link";
import { DataTable } from "@/components/dashboard/data-table";
import { content, count, fileSlug, text } from "@/components/dashboard/table-data";
import { whyOf } from "@/components/dashboard/agreement-tables";
import { formatNumber, formatTime } from "@/components/dashboard/format";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import { MakeRoundsForm, OpenOutsideRoundsButton, ReleaseForm, RoundRuleForm } from "@/components/round-forms";
import type { CoefficientReport } from "@/lib/analysis";
import { ROUND_COEFFICIENTS } from "@/lib/annotation/rounds";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { studyRounds, type OutsideRounds } from "@/lib/data/rounds";
import { makeRounds, openItemsOutsideRounds, previewMakeRounds, releaseNextRound, saveRoundRule } from "./actions";
import { StudyPageHeader } from "@/components/study-page-header";

export const dynamic = "force-dynamic";

const SHOWN = ["fleiss", "alpha", "cohen"] as const;

/** The value with its CI, and below it why the value is undefined or says little. */
function CoefficientText({ c, complete }: { c: CoefficientReport | undefined; complete: boolean }) {
  if (!c) return <>–</>;
  const ci = c.value === null ? "" : c.ci && c.ci.low !== null && c.ci.high !== null ? ` [${formatNumber(c.ci.low)}, ${formatNumber(c.ci.high)}]` : complete ? "" : " (CI computing)";
  const why = whyOf(c);
  return (
    <>
      {c.value === null ? "–" : formatNumber(c.value)}
      {ci}
      {why && (
        <span className="block max-w-xs text-left text-xs text-slate-600 ml-auto" data-testid="coefficient-why">
          {why}
        </span>
      )}
    </>
  );
}

/** Which state of the gate applies to the items outside every round (lib/data/round-gate). */
function outsideText(outside: OutsideRounds): string {
  if (outside.codeChanges === 0) return "Every code change of the study is in a round.";
  const items = `${outside.codeChanges} code change${outside.codeChanges === 1 ? " is" : "s are"} outside the rounds`;
  if (outside.held) return `${items}: closed to annotators until round ${outside.lastRound}, the last, is released, unless you open them now.`;
  if (outside.openedAt) return `${items}: open, opened by a lead on ${formatTime(outside.openedAt)} before the last round's release.`;
  return `${items}: open, since round ${outside.lastRound}, the last, is released.`;
}

/**
 * Calibration rounds: every annotator labels each round's items; when a round
 * closes its agreement per question with bootstrap CIs is shown beside the earlier rounds, the
 * lead reviews its disagreements and releases the next round (or the release rule does).
 */
export default async function RoundsPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const { study, rounds, outside } = await orPageError(studyRounds(account, slug));
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Calibration rounds">
        <p className="text-sm text-slate-600">
          Every annotator of the study labels the items of each round, round after round (GradedReviews §4.3); annotators who finish a round early wait for the next, and the items outside the rounds open after the last round&apos;s release. Making rounds shows the assignments it creates before it creates them. Agreement per question:
          Fleiss&apos; kappa, Krippendorff&apos;s alpha at the question&apos;s level and Cohen&apos;s kappa (mean over rater pairs), with 95% bootstrap CIs.
        </p>
        {rounds.length === 0 ? (
          <MakeRoundsForm slug={study.slug} preview={previewMakeRounds} save={makeRounds} />
        ) : (
          <RoundRuleForm slug={study.slug} coefficients={ROUND_COEFFICIENTS} initial={{ coefficient: study.roundCoefficient, threshold: study.roundThreshold }} save={saveRoundRule} />
        )}
      </StudyPageHeader>
      {outside && (
        <section aria-label="Items outside the rounds" className="flex flex-wrap items-center gap-3 rounded border border-slate-200 bg-white p-3 text-sm" data-testid="outside-rounds">
          <p>{outsideText(outside)}</p>
          {outside.held && outside.codeChanges > 0 && <OpenOutsideRoundsButton slug={study.slug} save={openItemsOutsideRounds} />}
        </section>
      )}
      {rounds.map((round, i) => {
        const next = rounds[i + 1];
        return (
          <section key={round.number} aria-label={`Round ${round.number}`} className="space-y-2 rounded border border-slate-200 bg-white p-3" data-testid="round">
            <h2 className="text-lg font-medium">
              Round {round.number} <span className="text-sm font-normal text-slate-500">({round.name}, {round.changes} code change{round.changes === 1 ? "" : "s"})</span>
            </h2>
            <p className="text-sm" data-testid="round-status">
              {round.releasedAt === null ? "not open yet" : round.closed ? "closed" : "open"} · {round.done} of {round.total} assignments finished
              {round.releasedAt && ` · opened ${formatTime(round.releasedAt)} (${round.releasedHow}${round.releasedBy ? `, ${round.releasedBy}` : ""})`}
            </p>
            {round.notes && <p className="whitespace-pre-wrap text-sm text-slate-700">Review notes: {round.notes}</p>}
            {round.agreement && (
              <>
                {round.agreement.progress && <p className="text-xs text-slate-500">{round.agreement.progress}</p>}
                <DataTable
                  table={{
                    id: `round-${round.number}-agreement`,
                    title: `Agreement in round ${round.number}`,
                    filename: fileSlug(study.slug, "round", String(round.number), "agreement"),
                    columns: [{ key: "question", label: "Question" }, { key: "items", label: "Items", numeric: true }, ...SHOWN.map((key) => ({ key, label: ROUND_COEFFICIENTS[key], numeric: true }))],
                    rows: round.agreement.report.tasks.flatMap((t) =>
                      t.questions.map((q) => ({
                        key: `${t.task}:${q.question}`,
                        data: { testid: "round-question" },
                        cells: [
                          text(`${TASK_LABELS[t.task]}: ${q.label}`),
                          count(q.counts.itemsWithTwoOrMoreRatings),
                          ...SHOWN.map((key) => {
                            const c = q.coefficients.find((c) => c.key === key);
                            return content(<CoefficientText c={c} complete={round.agreement!.complete} />, { value: c?.value ?? null, data: { testid: `coefficient-${key}` } });
                          }),
                        ],
                      })),
                    ),
                  }}
                />
                {round.closed && (
                  <details open={next?.releasedAt === null}>
                    <summary className="cursor-pointer text-sm font-medium">Disagreements to review</summary>
                    <ul className="text-sm">
                      {round.agreement.report.tasks.flatMap((t) =>
                        t.questions.flatMap((q) =>
                          q.disagreements.map((d) => (
                            <li key={`${t.task}:${q.question}:${d.item.id}`} data-testid="round-disagreement">
                              <Link href={`/studies/${study.slug}/adjudicate/${t.task}/${d.item.id}`} className="text-blue-700 hover:underline">
                                {d.item.label}
                              </Link>{" "}
                              {q.label}: {d.ratings.map((r) => `${r.rater.name}: ${String(r.value)}`).join(", ")}
                            </li>
                          )),
                        ),
                      )}
                    </ul>
                  </details>
                )}
              </>
            )}
            {next && next.releasedAt === null && round.closed && <ReleaseForm slug={study.slug} number={next.number} save={releaseNextRound} />}
          </section>
        );
      })}
    </div>
  );
}
