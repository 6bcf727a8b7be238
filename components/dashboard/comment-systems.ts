/**
 * The tables of the study page "Review comments per system", built from the object the CLI's
 * `comment-systems` prints, formatted only: c-CRAB Table 6 (comments, useful and useful % per
 * system, with the share's Wilson interval) and the counts behind Figure 6 (categories per system
 * beside the human reviewers'). Undefined values say why in their hover text and in the notes.
 */
import type { CategoryDistribution, UsefulnessRow, UsefulnessTable } from "@/lib/analysis/comment-systems";
import { HUMAN_SYSTEM } from "@/lib/analysis/comment-systems";
import { count, fileSlug, percent, text, type TableData } from "./table-data";

/** How the tables name a system: the human reviewers in words, a tool by its name. */
export const systemLabel = (system: string) => (system === HUMAN_SYSTEM ? "Human reviewers" : system);

/** Why a row's share is undefined, or undefined when it is defined. */
export function undecidedReason(row: { comments: number; decided: number }, question: string): string | undefined {
  if (row.decided > 0) return undefined;
  if (row.comments === 0) return "No comment.";
  return `None of its ${row.comments} comments has a consensus on "${question}" yet: no answers, a draft not yet submitted, or annotators who disagree and no lead decision (Adjudicate).`;
}

function usefulnessRow(row: UsefulnessRow, question: string, level: string, total = false) {
  const why = undecidedReason(row, question);
  return {
    key: total ? "total" : row.system,
    cells: [
      text(total ? "Total" : systemLabel(row.system)),
      count(row.comments),
      count(row.decided, row.decided < row.comments ? { title: `${row.comments - row.decided} without a consensus yet` } : {}),
      count(row.useful),
      percent(row.share, { title: why }),
      percent(row.ci?.[0], { title: why ?? `Lower end of the ${level} Wilson score interval of useful / decided` }),
      percent(row.ci?.[1], { title: why ?? `Upper end of the ${level} Wilson score interval of useful / decided` }),
    ],
  };
}

/** c-CRAB Table 6 as a dashboard table: a row per system (the human reviewers first), then the total. */
export function usefulnessTableData(slug: string, t: UsefulnessTable): TableData {
  const level = `${Math.round(t.confidenceLevel * 100)} %`;
  const table: TableData = {
    id: "comment-systems-table-6",
    title: `Table 6 (c-CRAB): useful comments per system ("${t.question}")`,
    filename: fileSlug(slug, "comment-systems-table-6"),
    empty: "No review comment in this study yet: import a pull request with its comments.",
    columns: [
      { key: "system", label: "System" },
      { key: "comments", label: "Comments", numeric: true },
      { key: "decided", label: "Decided", numeric: true, title: "Comments with a consensus on the question (unanimous answers or a lead decision)" },
      { key: "useful", label: "Useful", numeric: true },
      { key: "share", label: "Useful %", numeric: true, title: "Useful among the decided comments" },
      { key: "ciLow", label: `${level} CI low`, numeric: true, title: "Wilson score interval of the useful share" },
      { key: "ciHigh", label: `${level} CI high`, numeric: true, title: "Wilson score interval of the useful share" },
    ],
    rows: t.systems.map((row) => usefulnessRow(row, t.question, level)),
  };
  if (t.systems.length) table.rows.push(usefulnessRow(t.total, t.question, level, true));
  return table;
}

/** Figure 6's numbers: per system, its decided comments and each category's count and share. */
export function categoryTableData(slug: string, d: CategoryDistribution): TableData {
  return {
    id: "comment-systems-figure-6",
    title: `Figure 6 (c-CRAB): categories per system ("${d.question}")`,
    filename: fileSlug(slug, "comment-systems-figure-6"),
    empty: "No review comment in this study yet: import a pull request with its comments.",
    columns: [
      { key: "system", label: "System" },
      { key: "comments", label: "Comments", numeric: true },
      { key: "decided", label: "Decided", numeric: true, title: "Comments with a consensus category" },
      ...d.categories.map((c) => ({ key: c.code, label: c.label, numeric: true, title: `Share of the decided comments in ${c.label} (the count below)` })),
    ],
    rows: d.systems.map((row) => {
      const why = undecidedReason(row, d.question);
      return {
        key: row.system,
        cells: [text(systemLabel(row.system)), count(row.comments), count(row.decided), ...d.categories.map((c) => percent(row.shares[c.code], { sub: `n ${row.counts[c.code]}`, title: why, data: { n: row.counts[c.code] } }))],
      };
    }),
  };
}

/** One bar of Figure 6: a system and its share per category code, in percent (0 when none is decided). */
export type CategoryBar = { system: string; decided: number } & Record<string, number | string>;

/** The chart's bars: a system per bar, the human reviewers first, stacked by category. */
export function categoryBars(d: CategoryDistribution): CategoryBar[] {
  return d.systems.map((row) => ({
    system: systemLabel(row.system),
    decided: row.decided,
    ...Object.fromEntries(d.categories.map((c) => [c.code, row.shares[c.code] === null ? 0 : 100 * (row.shares[c.code] as number)])),
  }));
}
