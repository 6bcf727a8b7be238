import { DataTable } from "@/components/dashboard/data-table";
import { OverlapChart } from "@/components/dashboard/charts/overlap-chart";
import { usefulnessTableData } from "@/components/dashboard/comment-systems";
import { groupTableData, matcherRunsTableData, matcherScoreTableData, matchingTableData, overlapBars, overlapTableData, passRateTableData, usefulnessScoresTableData } from "@/components/dashboard/tools-report";
import { MatcherRunForm } from "@/components/dashboard/matcher-run-form";
import { formatTime } from "@/components/dashboard/format";
import { TestResultsForm } from "@/components/import/test-results-form";
import { StudyPageHeader } from "@/components/study-page-header";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { ledStudyMatcherRuns } from "@/lib/data/matcher-runs";
import { testResultsTargets } from "@/lib/data/test-outcomes";
import { studyToolsReport } from "@/lib/data/tools-report";
import { orPageError } from "@/lib/errors/page";
import { startMatcherRun } from "./actions";

export const dynamic = "force-dynamic";

/**
 * Review tools evaluated by execution (c-CRAB §4.3.2, §5.2): Table 5's pass rates per system (the
 * micro rate over tests and the macro mean of s_i, with bootstrap CIs over instances), Figure 5's
 * overlap of passed tests as an UpSet chart, Figure 7's pass rates per category, pass rates by
 * the human comment's yes/no answers, Table 6's usefulness; and the upload of test results.
 */
export default async function ToolsPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const slug = (await params).slug;
  const [report, targets, runs] = await orPageError(Promise.all([studyToolsReport(account, slug), testResultsTargets(account, slug), ledStudyMatcherRuns(account, slug)]));
  const { study, systems, overlap, byCategory, byAnswer, usefulness, matching, humanMatching, matcherRuns, llmMatching, usefulnessAgainstScores, notes } = report;
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Review tools: test outcomes">
        <p className="max-w-4xl text-sm text-slate-600">
          An instance is a pull request; its tests are every test some system has an outcome for there, and a test without a system&apos;s outcome counts as not passed. The <strong>micro pass rate</strong> is passed
          over all tests (c-CRAB Table 5&apos;s &quot;overall&quot;); the <strong>macro pass rate</strong> is the mean over instances of s_i, the share of instance i&apos;s tests passed (§4.3.2). Both CIs are percentile
          bootstrap intervals over instances. The human reviewers&apos; comments are what the tests encode: their row passes every test by construction. A test tied to a human comment inherits its consensus
          answers (its category, and yes/no questions such as usefulness). The same numbers as <code className="text-xs">npm run cli -- tools-report --study {study.slug} --json</code>.
        </p>
      </StudyPageHeader>
      {notes.length > 0 && (
        <ul data-testid="tools-notes" className="list-disc space-y-1 pl-5 text-sm text-amber-800">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      <section aria-label="Table 5" className="space-y-2">
        <DataTable table={passRateTableData(study.slug, systems.filter((row) => row.tests > 0))} />
      </section>
      {overlap && (
        <section aria-label="Figure 5" className="space-y-2">
          <OverlapChart
            bars={overlapBars(overlap)}
            systems={overlap.systems}
            label={`Figure 5 (c-CRAB): tests passed by exactly each combination of systems (UpSet chart). Union: ${overlap.union} of ${overlap.tests} tests passed by at least one system${overlap.unionShare === null ? "" : ` (${(100 * overlap.unionShare).toFixed(1)} %)`}; ${overlap.none} by none.`}
          />
          <DataTable table={overlapTableData(study.slug, overlap)} />
        </section>
      )}
      {byCategory && (
        <section aria-label="Figure 7" className="space-y-2">
          <DataTable table={groupTableData(study.slug, "tools-figure-7", `Figure 7 (c-CRAB): pass rate per category of the human comment ("${report.categoryQuestion}")`, byCategory, report.categoryLabels)} />
          {byCategory.ungrouped > 0 && <p className="text-xs text-slate-600">{byCategory.ungrouped} test(s) have no consensus category (no human comment, or none decided): in no column.</p>}
        </section>
      )}
      {byAnswer.map(({ question, rates }) => (
        <section key={question} aria-label={`By ${question}`} className="space-y-2">
          <DataTable table={groupTableData(study.slug, `tools-by-${question}`, `Pass rate by the human comment's answer to "${question}"`, rates)} />
        </section>
      ))}
      {usefulness && (
        <section aria-label="Table 6" className="space-y-2">
          <DataTable table={usefulnessTableData(study.slug, usefulness)} note="c-CRAB Table 6, as on the page Comments per system: useful among each system's decided comments, with its Wilson interval." />
        </section>
      )}
      {usefulnessAgainstScores && (
        <section aria-label="Usefulness and outcomes" className="space-y-2">
          <DataTable table={usefulnessScoresTableData(study.slug, usefulnessAgainstScores)} note={usefulnessAgainstScores.method} />
        </section>
      )}
      {humanMatching && (
        <section aria-label="Human matching" className="space-y-2">
          <DataTable
            table={matchingTableData(study.slug, "tools-human-matching", `Matching the human reviewers' comments: the annotators' matching (${humanMatching.fully} fully and ${humanMatching.partly} partly matching of ${humanMatching.decided} decided pairs, ${humanMatching.pairs} in all)`, humanMatching.systems)}
            note="The consensus of the matching question (the lead's decision, else the annotators' unanimous answer): a pair matching fully or partly is a match; an undecided pair is none. Recall: human comments matched; precision: the system's comments matching one; micro rates with bootstrap CIs over pull requests."
          />
        </section>
      )}
      {matching && (
        <section aria-label="Matching" className="space-y-2">
          <DataTable
            table={matchingTableData(study.slug, "tools-matching", `Matching the human reviewers' comments: location matcher, comments within ${matching.matcher.k} line${matching.matcher.k === 1 ? "" : "s"} (${matching.pairs} pairs)`, matching.systems)}
            note={`A system's comment matches a human comment of the same pull request on the same file and side whose lines are within k of its own (--match-lines K on the command line). Recall: human comments matched; precision: the system's comments matching one; micro rates with bootstrap CIs over pull requests. Signature ${matching.matcher.signature}.`}
          />
          {matching.scores && <DataTable table={matcherScoreTableData(study.slug, "tools-matcher-scores", "The location matcher against the annotators' matching, per system (pairs)", matching.scores)} />}
        </section>
      )}
      {matching && (
        <section aria-label="Matcher runs" className="space-y-2">
          <h2 className="text-lg font-medium">Matcher runs</h2>
          <p className="max-w-4xl text-sm text-slate-600">
            A run of the location matcher stores the pairs it finds with its signature, so that runs can be compared and re-run; the worker computes a run started here (
            <code className="text-xs">npm run cli -- matchers --study {study.slug} --k K</code> on the command line). Below, the newest finished run of each signature, read from its stored pairs and scored
            against the annotators&apos; matching.
          </p>
          <MatcherRunForm slug={study.slug} start={startMatcherRun} />
          <DataTable table={matcherRunsTableData(study.slug, runs)} />
          {matcherRuns.map((m, i) => (
            <div key={m.run.id} className="space-y-2">
              <DataTable
                table={matchingTableData(study.slug, `tools-matcher-run-${i + 1}`, `Matching the human reviewers' comments: the location matcher's run of ${formatTime(m.run.createdAt)}, k = ${m.matcher.k} (${m.pairs} pairs stored)`, m.systems)}
                note={`Signature ${m.matcher.signature}; run ${m.run.id}.`}
              />
              {m.scores && <DataTable table={matcherScoreTableData(study.slug, `tools-matcher-run-scores-${i + 1}`, `The location matcher's run (k = ${m.matcher.k}) against the annotators' matching, per system (pairs)`, m.scores)} />}
            </div>
          ))}
        </section>
      )}
      {llmMatching.map((m, i) => (
        <section key={m.matcher.judge} aria-label={`LLM matcher ${m.matcher.judge}`} className="space-y-2">
          <DataTable table={matchingTableData(study.slug, `tools-llm-matching-${i + 1}`, `Matching the human reviewers' comments: the LLM matcher ${m.matcher.judge} (${m.pairs} pairs fully or partly)`, m.systems)} note={`A judge run on the matching question (docs/judges.md); its runs: ${m.matcher.signature}.`} />
          {m.scores && <DataTable table={matcherScoreTableData(study.slug, `tools-llm-matcher-scores-${i + 1}`, `The LLM matcher ${m.matcher.judge} against the annotators' matching, per system (pairs)`, m.scores)} />}
        </section>
      ))}
      <section aria-label="Upload test results" className="space-y-2">
        <h2 className="text-lg font-medium">Upload test results</h2>
        <p className="max-w-4xl text-sm text-slate-600">
          One system&apos;s JUnit XML files for one pull request (give both below), or outcomes JSONL files naming them per line (<code className="text-xs">{"{pr, system, test, outcome, comment?}"}</code>). An import
          replaces the system&apos;s earlier outcomes for each pull request it gives, in one transaction: any error refuses it whole, naming the file and line. Format: docs/test-results.md.
        </p>
        <TestResultsForm slug={study.slug} pullRequests={targets.pullRequests} systems={targets.systems} />
      </section>
    </div>
  );
}
