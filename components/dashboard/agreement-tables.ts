/**
 * The agreement dashboard's tables, built from the AgreementReport exactly as the `agreement`
 * CLI prints it (no number is recomputed here, only formatted).
 */
import type { AgreementReport, ClaimQualityReport, CoefficientReport, QuestionAgreement } from "@/lib/analysis";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import { type Cell, count, fileSlug, num, percent, type Row, type TableData, text } from "./table-data";

type Settings = AgreementReport["settings"];

/** Short name of a coefficient; the exact method is in the table next to it. */
export function coefficientLabel(c: Pick<CoefficientReport, "key" | "method">, level?: string): string {
  switch (c.key) {
    case "percent":
      return "Percent agreement";
    case "cohen":
      return c.method.startsWith("Mean pairwise") ? "Mean pairwise Cohen's κ" : c.method.includes("unweighted") ? "Cohen's κ" : "Weighted Cohen's κ";
    case "fleiss":
      return "Fleiss' κ";
    case "alpha":
      return level ? `Krippendorff's α (${level})` : "Krippendorff's α";
    case "gwet":
      return c.method.startsWith("Gwet's AC1") ? "Gwet's AC1" : "Gwet's AC2";
    default:
      return `Krippendorff's α (${c.key.slice("alpha-".length)})`;
  }
}

/** Stable id fragment of a question: "review_rating-relevance". */
export const questionId = (q: Pick<QuestionAgreement, "task" | "question">) => fileSlug(q.task, q.question);

/** Why a coefficient is undefined (its reason) or says little (its note), shown next to it. */
export const whyOf = (c: { reason?: string; note?: string }): string | undefined => c.reason ?? c.note;

const ciPercent = (settings: Settings) => `${Math.round(settings.bootstrap.confidenceLevel * 100)}%`;

/** A CI cell: its bound, the resamples drawn in the tooltip; "computing…" while the CIs stream in. */
function ciCell(ci: CoefficientReport["ci"], bound: "low" | "high", pending: boolean): Cell {
  if (pending) return { text: "computing…", value: null };
  return num(ci?.[bound] ?? null, { title: ci?.reason ?? (ci ? `${ci.nResamples} bootstrap resamples` : undefined) });
}

export function coefficientTable(id: string, title: string, filename: string, coefficients: readonly CoefficientReport[], level: string, settings: Settings, pending = false): TableData {
  const ci = ciPercent(settings);
  return {
    id,
    title,
    filename,
    columns: [
      { key: "coefficient", label: "Coefficient" },
      { key: "value", label: "Value", numeric: true },
      { key: "n", label: "n", numeric: true, title: "Units the coefficient is computed on (see the method)" },
      { key: "ciLow", label: `${ci} CI low`, numeric: true },
      { key: "ciHigh", label: `${ci} CI high`, numeric: true },
      { key: "method", label: "Method" },
      { key: "why", label: "Why undefined or degenerate" },
    ],
    rows: coefficients.map((c) => ({
      key: c.key,
      cells: [
        text(coefficientLabel(c, level)),
        num(c.value, { title: whyOf(c) }),
        count(c.n),
        ciCell(c.ci, "low", pending),
        ciCell(c.ci, "high", pending),
        text(c.method),
        text(whyOf(c) ?? "", { data: { why: c.reason ? "undefined" : c.note ? "degenerate" : "none" } }),
      ],
    })),
  };
}

export function pairwiseTable(slug: string, q: QuestionAgreement): TableData {
  const qid = questionId(q);
  return {
    id: `pairwise-${qid}`,
    title: "Pairwise annotator agreement",
    filename: fileSlug(slug, "agreement", qid, "pairwise"),
    columns: [{ key: "rater", label: "Annotator" }, ...q.raters.map((r) => ({ key: r.id, label: r.name, numeric: true }))],
    rows: q.raters.map((r, i) => ({
      key: r.id,
      cells: [
        text(r.name),
        ...q.pairwise.matrix[i].map((cell): Cell => (cell === null ? { text: "—", value: null } : num(cell.value, { heat: cell.value, sub: [`n ${cell.n}`, whyOf(cell)].filter(Boolean).join(" · "), title: whyOf(cell), data: { n: cell.n } }))),
      ],
    })),
  };
}

export function confusionTable(slug: string, q: QuestionAgreement): TableData | null {
  const c = q.confusion;
  if (!c) return null;
  const qid = questionId(q);
  const max = Math.max(1, ...c.counts.flat());
  return {
    id: `confusion-${qid}`,
    title: `Confusion matrix: ${c.raters[0].name} (rows) × ${c.raters[1].name} (columns), n = ${c.n}`,
    filename: fileSlug(slug, "agreement", qid, "confusion"),
    columns: [{ key: "category", label: `${c.raters[0].name} \\ ${c.raters[1].name}` }, ...c.categories.map((cat) => ({ key: String(cat), label: String(cat), numeric: true }))],
    rows: c.categories.map((cat, i) => ({
      key: String(cat),
      cells: [text(String(cat)), ...c.counts[i].map((v, j) => count(v, { heat: v === 0 ? null : (i === j ? 1 : -1) * (0.2 + (0.8 * v) / max) }))],
    })),
  };
}

export function windowsTable(slug: string, q: QuestionAgreement): TableData {
  const qid = questionId(q);
  const keys = q.coefficients.map((c) => c);
  return {
    id: `windows-${qid}`,
    title: "Agreement per window",
    filename: fileSlug(slug, "agreement", qid, "windows"),
    columns: [
      { key: "window", label: "Window", numeric: true },
      { key: "items", label: "Items", numeric: true },
      { key: "firstItem", label: "First item" },
      { key: "lastItem", label: "Last item" },
      ...keys.map((c) => ({ key: c.key, label: coefficientLabel(c, q.level), numeric: true, title: c.method })),
    ],
    rows: q.windows.map((b) => ({
      key: String(b.window),
      cells: [
        count(b.window),
        count(b.items),
        text(b.firstItem),
        text(b.lastItem),
        ...keys.map((k) => {
          const c = b.coefficients.find((x) => x.key === k.key);
          const why = c && whyOf(c);
          return num(c?.value ?? null, { title: why, ...(why ? { sub: why } : {}), data: { n: c?.n ?? 0 } });
        }),
      ],
    })),
  };
}

/** Where a lead adjudicates an item: claims on the consolidation page, reviews on the study overview. */
export function itemHref(slug: string, q: QuestionAgreement, item: QuestionAgreement["disagreements"][number]["item"]): string {
  if (q.task === "CLAIM_VERIFICATION") return `/studies/${encodeURIComponent(slug)}/consolidate/${encodeURIComponent(item.codeChangeId)}`;
  return `/studies/${encodeURIComponent(slug)}#change-${encodeURIComponent(item.codeChangeExternalId)}`;
}

export function disagreementsTable(slug: string, q: QuestionAgreement, limit: number): TableData {
  const qid = questionId(q);
  return {
    id: `disagreements-${qid}`,
    title: `Items with the most disagreement (up to ${limit})`,
    filename: fileSlug(slug, "agreement", qid, "disagreements"),
    empty: "No item with two or more ratings disagrees.",
    columns: [
      { key: "item", label: "Item" },
      { key: "language", label: "Language" },
      { key: "agreement", label: "Agreement", numeric: true, title: "Share of agreeing rater pairs on the item" },
      { key: "range", label: "Range", numeric: true, title: "Highest minus lowest rating (ordinal scales)" },
      { key: "ratings", label: "Ratings" },
    ],
    rows: q.disagreements.map((d) => ({
      key: d.item.id,
      cells: [text(d.item.label, { href: itemHref(slug, q, d.item) }), text(d.item.language), num(d.agreement), num(d.range), text(d.ratings.map((r) => `${r.rater.name}: ${r.value}`).join("; "))],
    })),
  };
}

export function claimQualityTable(slug: string, report: ClaimQualityReport): TableData {
  const row = (r: ClaimQualityReport["overall"]): Row => ({
    key: r.language,
    cells: [
      text(r.language),
      count(r.claims),
      count(r.counts.correct),
      count(r.counts.incorrect),
      count(r.counts.unverifiable),
      count(r.counts.incomplete),
      count(r.counts.ambiguous),
      count(r.counts.unlabelled),
      count(r.addedClaims),
      count(r.rates.judged),
      percent(r.rates.accuracy, { title: r.rates.reason }),
      percent(r.rates.errorRate, { title: r.rates.reason }),
      percent(r.rates.unverifiableRate, { title: r.rates.reason }),
      percent(r.rates.missingRate, { title: r.rates.reason }),
    ],
  });
  return {
    id: "claim-quality",
    title: "Claim quality per language (CRScore Table 1)",
    filename: fileSlug(slug, "claim-quality"),
    columns: [
      { key: "language", label: "Language" },
      { key: "claims", label: "Claims", numeric: true },
      { key: "correct", label: "Correct", numeric: true },
      { key: "incorrect", label: "Incorrect", numeric: true },
      { key: "unverifiable", label: "Unverifiable", numeric: true },
      { key: "incomplete", label: "Incomplete", numeric: true },
      { key: "ambiguous", label: "Ambiguous", numeric: true },
      { key: "unlabelled", label: "Unlabelled", numeric: true },
      { key: "added", label: "Added by annotators", numeric: true },
      { key: "judged", label: "Judged", numeric: true, title: "Correct + incorrect + unverifiable: the rates' denominator" },
      { key: "accuracy", label: "Accuracy", numeric: true },
      { key: "error", label: "Error rate", numeric: true },
      { key: "unverifiableRate", label: "Unverifiable rate", numeric: true },
      { key: "missing", label: "Missing rate", numeric: true },
    ],
    rows: [...report.byLanguage.map(row), row(report.overall)],
  };
}

export const taskLabel = (task: keyof typeof TASK_LABELS) => TASK_LABELS[task];
