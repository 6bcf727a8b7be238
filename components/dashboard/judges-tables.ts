/**
 * The agreement dashboard's "Judges" section of a question, built from the report's `judges`
 * part (lib/analysis/judge-agreement.ts) as the `agreement` CLI prints it: nothing is
 * recomputed here, only laid out (SWE-Judge §5.2, Figure 4).
 */
import type { JudgeAgreement } from "@/lib/analysis/judge-agreement";
import type { QuestionAgreement } from "@/lib/analysis";
import type { KappaBar } from "./charts/judge-kappa-chart";
import { questionId } from "./agreement-tables";
import { type Cell, count, fileSlug, num, percent, type TableData, text } from "./table-data";

const DASH: Cell = { text: "—", value: null };

/** κ min, max and mean of the annotator pairs beside each judge's mean κ with the annotators and its CI. */
export function judgeKappaTable(slug: string, q: Pick<QuestionAgreement, "task" | "question">, judges: JudgeAgreement): TableData {
  const qid = questionId(q);
  const hh = judges.humanHuman;
  return {
    id: `judges-kappa-${qid}`,
    title: "Human–Human and Human–Judge agreement (Cohen's κ)",
    filename: fileSlug(slug, "agreement", qid, "judges-kappa"),
    columns: [
      { key: "rater", label: "Raters" },
      { key: "mean", label: "Mean κ", numeric: true },
      { key: "ciLow", label: "CI low", numeric: true },
      { key: "ciHigh", label: "CI high", numeric: true },
      { key: "min", label: "Min κ", numeric: true },
      { key: "max", label: "Max κ", numeric: true },
      { key: "pairs", label: "Pairs", numeric: true, title: "Annotator pairs (Human–Human) or annotators (Human–Judge) with an item in common" },
      { key: "why", label: "Why undefined" },
    ],
    rows: [
      {
        key: "human-human",
        cells: [text("Human–Human"), num(hh.mean, { title: hh.reason }), DASH, DASH, num(hh.min), num(hh.max), count(hh.pairs.length), text(hh.reason ?? "", { data: { why: hh.reason ? "undefined" : "none" } })],
      },
      ...Object.entries(judges.humanJudge).map(([name, j]) => {
        const why = j.reason ?? j.ci?.reason;
        return {
          key: name,
          cells: [
            text(`Human–${name}`),
            num(j.mean, { title: j.reason }),
            num(j.ci?.low ?? null, { title: j.ci ? (j.ci.reason ?? `${j.ci.nResamples} bootstrap resamples`) : "no CI: no bootstrap resamples" }),
            num(j.ci?.high ?? null, { title: j.ci?.reason }),
            DASH,
            DASH,
            count(j.perAnnotator.length),
            text(why ?? "", { data: { why: why ? "undefined" : "none" } }),
          ],
        };
      }),
    ],
  };
}

/** Each judge's κ with each annotator (rows: judges; columns: the annotators any judge was compared with). */
export function judgePerAnnotatorTable(slug: string, q: Pick<QuestionAgreement, "task" | "question">, judges: JudgeAgreement): TableData {
  const qid = questionId(q);
  const annotators = new Map<string, string>();
  for (const j of Object.values(judges.humanJudge)) for (const p of j.perAnnotator) annotators.set(p.rater.id, p.rater.name);
  return {
    id: `judges-annotators-${qid}`,
    title: "Human–Judge κ per annotator",
    filename: fileSlug(slug, "agreement", qid, "judges-annotators"),
    empty: "No annotator rated an item a judge answered.",
    columns: [{ key: "judge", label: "Judge" }, ...[...annotators].map(([id, name]) => ({ key: id, label: name, numeric: true }))],
    rows: Object.entries(judges.humanJudge).map(([name, j]) => ({
      key: name,
      cells: [
        text(name),
        ...[...annotators.keys()].map((id): Cell => {
          const p = j.perAnnotator.find((x) => x.rater.id === id);
          if (!p) return { text: "—", value: null, title: "no item in common" };
          return num(p.value, { heat: p.value, sub: [`n ${p.n}`, p.reason].filter(Boolean).join(" · "), title: p.reason, data: { n: p.n } });
        }),
      ],
    })),
  };
}

/** A figure's three cells: its value (with why it is undefined), and its CI's bounds. */
function figureCells(value: number | null, ci: readonly [number | null, number | null] | null, reason: string | undefined, format: typeof num): Cell[] {
  return [format(value, { title: reason, ...(reason ? { sub: reason } : {}) }), format(ci?.[0] ?? null), format(ci?.[1] ?? null)];
}

const BINARY_ONLY: Cell[] = [{ text: "binary questions only", value: null }, DASH, DASH];

/** Each judge against the consensus answers: accuracy, and on a binary question precision, recall and F1 of the positive answer, with CIs. */
export function judgeConsensusTable(slug: string, q: Pick<QuestionAgreement, "task" | "question">, judges: JudgeAgreement): TableData {
  const qid = questionId(q);
  const figure = (key: string, label: string, ci: string) => [
    { key, label, numeric: true },
    { key: `${key}Low`, label: `${label} ${ci} low`, numeric: true },
    { key: `${key}High`, label: `${label} ${ci} high`, numeric: true },
  ];
  return {
    id: `judges-consensus-${qid}`,
    title: "Judges against the consensus",
    filename: fileSlug(slug, "agreement", qid, "judges-consensus"),
    columns: [
      { key: "judge", label: "Judge" },
      { key: "items", label: "Items", numeric: true, title: "Items the judge answered that have a consensus (or gold) answer" },
      { key: "positive", label: "Positive answer" },
      ...figure("accuracy", "Accuracy", "95% Wilson"),
      ...figure("precision", "Precision", "95% Wilson"),
      ...figure("recall", "Recall", "95% Wilson"),
      ...figure("f1", "F1", "bootstrap"),
    ],
    rows: Object.entries(judges.againstConsensus).map(([name, c]) => ({
      key: name,
      cells: [
        text(name),
        count(c.items, { title: c.reason }),
        text(c.positive ?? "—"),
        ...figureCells(c.accuracy.value, c.accuracy.ci, c.accuracy.reason, percent),
        ...(c.precision ? figureCells(c.precision.value, c.precision.ci, c.precision.reason, percent) : BINARY_ONLY),
        ...(c.recall ? figureCells(c.recall.value, c.recall.ci, c.recall.reason, percent) : BINARY_ONLY),
        ...(c.f1 ? figureCells(c.f1.value, c.f1.ci ? [c.f1.ci.low, c.f1.ci.high] : null, c.f1.reason ?? c.f1.ci?.reason, num) : BINARY_ONLY),
      ],
    })),
  };
}

/** The bars of SWE-Judge's Figure 4 for one question: min, max and mean Human–Human κ, then each judge's mean Human–Judge κ with its CI. */
export function judgeKappaBars(judges: JudgeAgreement): KappaBar[] {
  const hh = judges.humanHuman;
  return [
    { label: "Min Human–Human", kappa: hh.min, kind: "human" },
    { label: "Max Human–Human", kappa: hh.max, kind: "human" },
    { label: "Mean Human–Human", kappa: hh.mean, kind: "human" },
    ...Object.entries(judges.humanJudge).map(([name, j]): KappaBar => ({ label: `Mean Human–${name}`, kappa: j.mean, kind: "judge", ci: j.ci && j.ci.low !== null && j.ci.high !== null ? [j.ci.low, j.ci.high] : null })),
  ];
}
