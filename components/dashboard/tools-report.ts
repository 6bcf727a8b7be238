/**
 * The tables of the study page "Review tools", built from the object `tools-report --json`
 * prints, formatted only: c-CRAB Table 5 (per system instances, tests, passed, the micro pass
 * rate and the macro mean of s_i with their bootstrap CIs), Figure 5's overlap of passed tests
 * (every combination's count, and the union), and pass rates per group of tests (Figure 7 by the
 * human comment's category; the yes/no answers of the human comment). Undefined values say why.
 */
import type { GroupPassRates, PassedOverlap, PassRateRow, Rate } from "@/lib/analysis/pass-rates";
import type { MatcherScore, MatchRow } from "@/lib/analysis/comment-matching";
import type { UsefulnessAgainstScores } from "@/lib/analysis/comment-systems";
import { systemLabel } from "./comment-systems";
import { formatTime } from "./format";
import { count, fileSlug, percent, text, type Cell, type Column, type TableData } from "./table-data";

const rateCells = (rate: Rate, what: string, clusters = "instances"): Cell[] => [
  percent(rate.value, { title: rate.value === null ? rate.reason : undefined }),
  percent(rate.ci?.[0], { title: rate.ci ? `Lower end of the bootstrap CI of the ${what} (${clusters} resampled)` : rate.reason }),
  percent(rate.ci?.[1], { title: rate.ci ? `Upper end of the bootstrap CI of the ${what} (${clusters} resampled)` : rate.reason }),
];

const rateColumns = (key: string, label: string, title: string, clusters = "instances"): Column[] => [
  { key, label, numeric: true, title },
  { key: `${key}Low`, label: "CI low", numeric: true, title: `Bootstrap CI of the ${label.toLowerCase()}, ${clusters} resampled` },
  { key: `${key}High`, label: "CI high", numeric: true, title: `Bootstrap CI of the ${label.toLowerCase()}, ${clusters} resampled` },
];

/** c-CRAB Table 5: a row per system, the human reviewers' first (every test passes by construction). */
export function passRateTableData(slug: string, rows: readonly PassRateRow[]): TableData {
  return {
    id: "tools-table-5",
    title: "Table 5 (c-CRAB): pass rates per system",
    filename: fileSlug(slug, "tools-table-5"),
    empty: "No test outcomes yet: upload a system's test results below.",
    columns: [
      { key: "system", label: "System" },
      { key: "instances", label: "Instances", numeric: true, title: "Pull requests with tests" },
      { key: "tests", label: "Tests", numeric: true, title: "Every test some system has an outcome for, over the instances" },
      { key: "passed", label: "Passed", numeric: true },
      { key: "missing", label: "No outcome", numeric: true, title: "Tests without an outcome of this system: counted as not passed" },
      ...rateColumns("micro", "Micro pass rate", "Σ passed / Σ tests over all instances (c-CRAB Table 5's overall)"),
      ...rateColumns("macro", "Macro pass rate", "The mean over instances of s_i = passed / tests of instance i (§4.3.2)"),
    ],
    rows: rows.map((row) => ({
      key: row.system,
      data: row.human ? { human: true } : undefined,
      cells: [
        text(systemLabel(row.system), row.human ? { title: "The human reviewers' comments are what the tests encode: every test passes by construction" } : {}),
        count(row.instances),
        count(row.tests),
        count(row.passed),
        count(row.missing),
        ...rateCells(row.microPassRate, "micro pass rate"),
        ...rateCells(row.macroPassRate, "macro pass rate"),
      ],
    })),
  };
}

/** Figure 5's numbers: every combination of systems with the tests passed by exactly those, then the union and the tests none passed. */
export function overlapTableData(slug: string, overlap: PassedOverlap): TableData {
  return {
    id: "tools-figure-5",
    title: "Figure 5 (c-CRAB): passed tests per combination of systems",
    filename: fileSlug(slug, "tools-figure-5"),
    columns: [
      { key: "combination", label: "Passed by exactly" },
      { key: "passed", label: "Tests", numeric: true },
      { key: "share", label: "Share of tests", numeric: true },
    ],
    rows: overlap.combinations.map((c) => ({
      key: c.systems.join("+"),
      cells: [text(c.systems.map(systemLabel).join(" + ")), count(c.passed), percent(overlap.tests === 0 ? null : c.passed / overlap.tests)],
    })),
    foot: [
      { key: "union", cells: [text("Union: passed by at least one system"), count(overlap.union), percent(overlap.unionShare)] },
      { key: "none", cells: [text("Passed by none"), count(overlap.none), percent(overlap.tests === 0 ? null : overlap.none / overlap.tests)] },
    ],
  };
}

/** Pass rates per group of tests: a row per system, a column per group (passed / tests, with Wilson's interval in the hover text). */
export function groupTableData(slug: string, id: string, title: string, rates: GroupPassRates, labels: Record<string, string> = {}): TableData {
  const level = `${Math.round(rates.confidenceLevel * 100)} %`;
  return {
    id,
    title,
    filename: fileSlug(slug, id),
    columns: [{ key: "system", label: "System" }, ...rates.groups.map((g) => ({ key: g, label: labels[g] ?? g, numeric: true, title: `Pass rate of the tests whose human comment is ${labels[g] ?? g} (passed / tests under it)` }))],
    rows: rates.rows.map((row) => ({
      key: row.system,
      cells: [
        text(systemLabel(row.system)),
        ...rates.groups.map((g) => {
          const cell = row.cells[g];
          return percent(cell.rate.value, {
            sub: `${cell.passed}/${cell.tests}`,
            title: cell.rate.value === null ? cell.rate.reason : cell.rate.ci ? `${level} Wilson interval ${(100 * cell.rate.ci[0]).toFixed(1)}–${(100 * cell.rate.ci[1]).toFixed(1)} %` : cell.rate.reason,
            data: { passed: cell.passed, tests: cell.tests },
          });
        }),
      ],
    })),
  };
}

/** Per system, matching recall and precision under a matching (the annotators', or a matcher's; bootstrap CIs over pull requests) and its useful comments no human comment matches. */
export function matchingTableData(slug: string, id: string, title: string, rows: readonly MatchRow[]): TableData {
  return {
    id,
    title,
    filename: fileSlug(slug, id),
    columns: [
      { key: "system", label: "System" },
      { key: "comments", label: "Comments", numeric: true },
      { key: "matchingComments", label: "Matching", numeric: true, title: "The system's comments that match some human comment" },
      { key: "matchedHumanComments", label: "Human matched", numeric: true, title: "Human comments some comment of the system matches, of all human comments" },
      ...rateColumns("recall", "Recall", "The share of the human comments matched", "pull requests"),
      ...rateColumns("precision", "Precision", "The share of the system's comments that match a human comment", "pull requests"),
      { key: "usefulUnmatched", label: "Useful, unmatched", numeric: true, title: "Comments judged useful (consensus) that match no human comment, of the useful ones" },
    ],
    rows: rows.map((row) => ({
      key: row.system,
      cells: [
        text(row.system),
        count(row.comments),
        count(row.matchingComments),
        count(row.matchedHumanComments, { sub: `of ${row.humanComments}` }),
        ...rateCells(row.recall, "recall", "pull requests"),
        ...rateCells(row.precision, "precision", "pull requests"),
        count(row.usefulUnmatched, { sub: row.useful === null ? undefined : `of ${row.useful} useful`, title: row.useful === null ? 'The study asks no yes/no question "useful"' : undefined }),
      ],
    })),
  };
}

/** A matcher's pairs against the human matching, per system: precision (its pairs the annotators matched) and recall (the annotators' pairs it found). */
export function matcherScoreTableData(slug: string, id: string, title: string, scores: readonly MatcherScore[]): TableData {
  const share = (value: number | null, reason: string | undefined) => percent(value, { title: value === null ? reason : undefined });
  return {
    id,
    title,
    filename: fileSlug(slug, id),
    columns: [
      { key: "system", label: "System" },
      { key: "found", label: "Pairs found", numeric: true, title: "Pairs of a comment of the system and a human comment the matcher found" },
      { key: "judged", label: "Pairs matched by annotators", numeric: true, title: "Pairs whose consensus on the matching question is fully or partly" },
      { key: "agreed", label: "Both", numeric: true },
      { key: "precision", label: "Precision", numeric: true, title: "Both / pairs found" },
      { key: "recall", label: "Recall", numeric: true, title: "Both / pairs matched by annotators" },
    ],
    rows: scores.map((row) => ({ key: row.system, cells: [text(row.system), count(row.found), count(row.judged), count(row.agreed), share(row.precision, row.reason), share(row.recall, row.reason)] })),
  };
}

/** A study's matcher runs, newest first: when, the signature, status and pairs stored (or the error). */
export function matcherRunsTableData(slug: string, runs: readonly { id: string; createdAt: Date; signature: string; status: string; pairs: number; error: string | null }[]): TableData {
  return {
    id: "tools-matcher-runs",
    title: "Matcher runs",
    filename: fileSlug(slug, "tools-matcher-runs"),
    empty: "No matcher run is stored yet.",
    columns: [
      { key: "createdAt", label: "Started" },
      { key: "signature", label: "Signature" },
      { key: "status", label: "Status" },
      { key: "pairs", label: "Pairs", numeric: true, title: "Pairs of a system's comment and a human comment the run found and stored" },
    ],
    rows: runs.map((run) => ({
      key: run.id,
      cells: [text(formatTime(run.createdAt), { title: run.id }), text(run.signature), text(run.status.toLowerCase(), { title: run.error ?? undefined }), count(run.status === "DONE" ? run.pairs : null)],
    })),
  };
}

/** Each system's useful share beside its mean s_i, and Spearman's ρ over the systems (its n, and why it is undefined). */
export function usefulnessScoresTableData(slug: string, r: UsefulnessAgainstScores): TableData {
  const rho = r.rho === null ? `undefined (${r.reason})` : `ρ = ${r.rho.toFixed(3)}${r.pValue === null ? "" : `, p = ${r.pValue.toFixed(3)}`}`;
  return {
    id: "tools-usefulness-scores",
    title: `Useful share against mean s_i per system: Spearman ${rho}, n = ${r.n}`,
    filename: fileSlug(slug, "tools-usefulness-scores"),
    columns: [
      { key: "system", label: "System" },
      { key: "usefulShare", label: "Useful share", numeric: true, title: "Useful among the system's decided comments (c-CRAB Table 6)" },
      { key: "meanScore", label: "Mean s_i", numeric: true, title: "The macro pass rate (c-CRAB §4.3.2)" },
    ],
    rows: r.systems.map((row) => ({ key: row.system, cells: [text(systemLabel(row.system)), percent(row.usefulShare), percent(row.meanScore)] })),
  };
}

/** One bar of the UpSet chart: a combination of systems and the tests passed by exactly it. */
export interface OverlapBar {
  key: string;
  passed: number;
  /** Which systems (in the chart's order) the combination holds. */
  members: boolean[];
}

export function overlapBars(overlap: PassedOverlap): OverlapBar[] {
  return overlap.combinations.map((c) => ({ key: c.systems.join("+"), passed: c.passed, members: overlap.systems.map((s) => c.systems.includes(s)) }));
}
