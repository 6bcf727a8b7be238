/**
 * The agreement dashboard's numbers for a study (and the `agreement` CLI's JSON): per task and
 * question, the coefficients with bootstrap CIs and method names, the pairwise annotator matrix,
 * a confusion matrix, agreement per window over time (GradedReviews §4.3 reports Fleiss' kappa
 * rising batch by batch), the reliability set (CRScore §4.1-4.2: a common set of 100 items),
 * the items with the most disagreement, and for claims the Table 1 rates per language.
 */
import { type AgreementResult, ItemSubsets, leastAgreement, type Level, pairConfusions, type PairConfusions, pairKappa, answerTableFromColumns, type AnswerTable, type AnswerValue } from "@/lib/agreement";
import { oncePer } from "@/lib/agreement/once-per";
import { degenerateNote, type TableFacts } from "@/lib/agreement/reasons";
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { ClaimQualityReport } from "./claim-quality";
import { type CoefficientDefinition, coefficientDefinitions, type CoefficientKey } from "./coefficients";
import type { StudyForAnalysis } from "@/lib/data/studies";
import type { QuestionColumns, StudyItem, TaskColumns } from "./gather";
import { countedWork } from "./drafts";
import { inItemSet, type ItemSetFilter, itemSetStatement, type ItemSetStatement, restrictToItemSet } from "./item-sets";
import type { Question } from "./questions";
import { type BootstrapSettings, bootstrapSettings, type Interval, resampleItems, tablesBootstrapCis } from "./resample";
import { AppError } from "@/lib/errors";
import { judgeAgreement, type JudgeAgreement } from "./judge-agreement";

export interface AgreementOptions {
  /** One task only; default every task of the study. */
  task?: TaskType;
  bootstrap?: Partial<BootstrapSettings>;
  /** Items per window for agreement over time. Default 50. */
  windowSize?: number;
  /** The study's reliability set (the one its assignment plan made, or a lead stored; CRScore §4.1-4.2); none leaves the section out. */
  reliabilitySet?: ItemSetFilter;
  /** Length of the disagreement list. Default 20. */
  disagreements?: number;
  /** Krippendorff's alpha at further levels of measurement (nominal, ratio) on request. */
  alphaLevels?: Level[];
  /** Restrict every figure to an item set (external ids `CODE_CHANGE_ID`, `CODE_CHANGE_ID/REVIEW_ID` or `CODE_CHANGE_ID/CLAIM_ID`). */
  items?: ItemSetFilter;
  /** Take gold items (known answers, lib/data/gold) too; by default they are left out. */
  includeGold?: boolean;
  /** Count drafts (ratings of unsubmitted assignments) too; by default only submitted work counts (lib/analysis/drafts.ts). */
  includeDrafts?: boolean;
  /** The judges section's κ weights: unweighted as SWE-Judge §5.2 (default), or quadratic. */
  judgeWeights?: "unweighted" | "quadratic";
}

export interface CoefficientReport {
  key: CoefficientKey;
  method: string;
  value: number | null;
  n: number;
  /** Why the value is undefined (value null). */
  reason?: string;
  /** Why a defined value says little (lib/agreement/reasons.ts degenerateNote): a single item, no agreeing ratings, a constant rater, a CI without width. */
  note?: string;
  /** Bootstrap CI; null when not computed (per-window figures) or the coefficient is undefined. */
  ci: Interval | null;
}

export interface RaterRef {
  id: string;
  name: string;
}

export interface PairCell {
  value: number | null;
  n: number;
  reason?: string;
  note?: string;
}

export interface QuestionAgreement {
  task: TaskType;
  question: string;
  label: string;
  level: Question["level"];
  scale: AnswerValue[];
  raters: RaterRef[];
  counts: { items: number; ratings: number; raters: number; itemsWithTwoOrMoreRatings: number; excludedOffScale: number; draftsLeftOut: number };
  coefficients: CoefficientReport[];
  /** The same coefficients on the items of the study's reliability set rated by two or more; null without a set or such items. */
  reliabilitySet: { rule: string; items: number; firstItem: string; lastItem: string; coefficients: CoefficientReport[] } | null;
  /** Cohen's kappa of every pair of raters (same weights as above), in `raters` order; null on the diagonal. */
  pairwise: { method: string; matrix: (PairCell | null)[][] };
  /** Confusion matrix of the pair of raters with the most common items (rows: first rater). */
  confusion: { raters: [RaterRef, RaterRef]; categories: AnswerValue[]; counts: number[][]; n: number } | null;
  /** Coefficients (no CIs) on consecutive windows of the items with two or more ratings, in study order. */
  windows: { window: number; items: number; firstItem: string; lastItem: string; coefficients: CoefficientReport[] }[];
  /** Items with the least agreement (then the widest range), for adjudication. */
  disagreements: { item: StudyItem; agreement: number | null; range: number | null; ratings: { rater: RaterRef; value: AnswerValue }[] }[];
  /** Judge raters against the annotators (SWE-Judge §5.2); null when no judge answered the question. */
  judges: JudgeAgreement | null;
}

export interface TaskAgreement {
  task: TaskType;
  questions: QuestionAgreement[];
  /** CLAIM_VERIFICATION only. */
  claimQuality: ClaimQualityReport | null;
}

export interface AgreementReport {
  study: { id: string; slug: string; name: string };
  /** The items the report counts: all of the study, or a named set with its kind, size (ids listed) and the ids that match no item. */
  itemSet: ItemSetStatement;
  settings: { bootstrap: BootstrapSettings & { method: string }; counted: string; windowSize: number; reliabilitySet: { name: string; kind: string; size: number } | null; disagreements: number };
  tasks: TaskAgreement[];
}

interface Settings {
  alphaLevels?: Level[];
  bootstrap: BootstrapSettings;
  windowSize: number;
  reliabilitySet: ItemSetFilter | null;
  disagreements: number;
}

/**
 * The coefficients of a table; with bootstrap settings, each defined one gets its item-bootstrap
 * CI (one stream of seeded item resamples for all, each coefficient computed from sums over
 * the resamples' picks without building their tables: lib/agreement/resampled.ts).
 */
export function coefficientReports(table: AnswerTable, question: Question, bootstrap: BootstrapSettings | null, alphaLevels: readonly Level[] = [], names?: ReadonlyMap<string, string>): CoefficientReport[] {
  return tablesCoefficientReports([{ table, question }], bootstrap, alphaLevels, names)[0];
}

/**
 * coefficientReports of several tables (a task's questions). Tables over the same number of
 * items share one stream of resamples (tablesBootstrapCis: the picks each would draw alone,
 * drawn once), so each table's CIs are the ones coefficientReports gives it.
 */
export function tablesCoefficientReports(tables: readonly { table: AnswerTable; question: Question }[], bootstrap: BootstrapSettings | null, alphaLevels: readonly Level[] = [], names?: ReadonlyMap<string, string>): CoefficientReport[][] {
  const definitions = tables.map(({ table, question }) => coefficientDefinitions(question, table.raters.length, alphaLevels, names));
  const results = tables.map(({ table }, g) => definitions[g].map((def) => def.compute(table)));
  const withCi = results.map((r) => (bootstrap && bootstrap.nResamples > 0 ? r.flatMap((result, k) => (result.value !== null ? [k] : [])) : []));
  const cis: Interval[][] = tables.map(() => []);
  if (bootstrap) {
    const groups = new Map<number, number[]>();
    tables.forEach(({ table }, g) => groups.set(table.items.length, [...(groups.get(table.items.length) ?? []), g]));
    for (const group of groups.values()) {
      if (group.every((g) => withCi[g].length === 0)) continue; // no CIs wanted (nResamples 0, or no defined coefficient)
      const statistics = group.map((g) => ({ table: tables[g].table, statistics: withCi[g].map((k) => ({ resampled: definitions[g][k].resampled, cost: tables[g].table.value.length * definitions[g][k].passes })) }));
      tablesBootstrapCis(statistics, bootstrap).forEach((intervals, i) => (cis[group[i]] = intervals));
    }
  }
  return definitions.map((defs, g) => coefficientReportsOf(defs, results[g], (k) => (withCi[g].includes(k) ? cis[g][withCi[g].indexOf(k)] : null)));
}

/** The reports of one table's coefficients; what its percent agreement says of the table goes into every note. */
function coefficientReportsOf(definitions: readonly CoefficientDefinition[], results: readonly AgreementResult[], ci: (k: number) => Interval | null): CoefficientReport[] {
  const percent = results[definitions.findIndex((def) => def.key === "percent")];
  const facts: TableFacts = { items: percent?.n ?? 0, noAgreement: percent?.value === 0 };
  return definitions.map((def, k) => coefficientReport(def, results[k], ci(k), facts));
}

function coefficientReport(def: CoefficientDefinition, r: AgreementResult, ci: Interval | null, facts: TableFacts): CoefficientReport {
  const note = degenerateNote(r, facts, ci, { isPercentAgreement: def.key === "percent" });
  return { key: def.key, method: def.method, value: r.value, n: r.n, ...(r.reason === undefined ? {} : { reason: r.reason }), ...(note === undefined ? {} : { note }), ci };
}

/**
 * The distinct values of `indices` (in [0, size)) in first-seen order: for a question's item
 * column, the study item of each item of its table (answerTableFromColumns numbers items so).
 */
function firstSeen(indices: Int32Array, size: number): Int32Array {
  const seen = new Uint8Array(size);
  const distinct = new Int32Array(size);
  let n = 0;
  for (let e = 0; e < indices.length; e++) {
    const i = indices[e];
    if (seen[i] === 1) continue;
    seen[i] = 1;
    distinct[n++] = i;
  }
  return distinct.subarray(0, n);
}

/** Indices (into table.items, in study order) of the items with two or more ratings. */
function pairableItems(table: AnswerTable): Int32Array {
  const pairable = new Int32Array(table.items.length);
  let n = 0;
  for (let u = 0; u < table.items.length; u++) if (table.itemStart[u + 1] - table.itemStart[u] >= 2) pairable[n++] = u;
  return pairable.subarray(0, n);
}

/** Confusion matrix of the pair of raters with the most common items (the first such pair in rater order). */
function confusionOf(table: AnswerTable, confusions: PairConfusions, ref: (id: string) => RaterRef): QuestionAgreement["confusion"] {
  const raters = table.raters.length;
  let best = -1;
  for (let i = 0; i < raters; i++) {
    for (let j = i + 1; j < raters; j++) if (confusions.n[i * raters + j] > (best < 0 ? 0 : confusions.n[best])) best = i * raters + j;
  }
  if (best < 0) return null;
  const q = table.scale.length;
  const pair = confusions.counts[best] as Float64Array; // n > 0: counted
  const counts = Array.from({ length: q }, (_, a) => Array.from(pair.subarray(a * q, (a + 1) * q)));
  return { raters: [ref(table.raters[Math.floor(best / raters)]), ref(table.raters[best % raters])], categories: [...table.scale], counts, n: confusions.n[best] };
}

/** A task's item ids and items by id, made once for all its questions. */
const studyItems = oncePer((items: readonly StudyItem[]) => ({ ids: items.map((item) => item.id), byId: new Map(items.map((item) => [item.id, item])) }));

/**
 * The table of one question's columns: the table buildAnswerTable makes of the same ratings
 * (items, then raters, in the columns' order; values at their scale positions), without an
 * object or a string lookup per rating.
 */
export function questionTable(data: Pick<TaskColumns, "items" | "raters">, q: QuestionColumns): AnswerTable {
  const positions = q.question.scale.map((_, k) => k);
  const table = answerTableFromColumns({ items: studyItems(data.items).ids, raters: data.raters, item: q.item, rater: q.rater, value: q.value }, { scale: positions });
  return { ...table, scale: q.question.scale };
}

/** The agreement section of one question from its columns (pure: the task's items in study order, its raters and their names are given). */
export function questionAgreement(data: Pick<TaskColumns, "items" | "raters">, q: QuestionColumns, names: ReadonlyMap<string, string>, settings: Settings): QuestionAgreement {
  const table = questionTable(data, q);
  return { ...questionSection(data, q, table, coefficientReports(table, q.question, settings.bootstrap, settings.alphaLevels, names), names, settings), judges: null };
}

/** questionAgreement on the question's table, with its coefficients computed already (together with the task's other questions). */
function questionSection(data: Pick<TaskColumns, "items" | "raters">, q: QuestionColumns, table: AnswerTable, coefficients: CoefficientReport[], names: ReadonlyMap<string, string>, settings: Settings): Omit<QuestionAgreement, "judges"> {
  const { question } = q;
  const items = studyItems(data.items).byId;
  // The study item of each table item (u → data.items[study[u]]), without a lookup by id per item.
  const study = firstSeen(q.item, data.items.length);
  const ref = (id: string): RaterRef => ({ id, name: names.get(id) ?? id });

  const pairable = pairableItems(table);
  const first = (indices: ArrayLike<number>) => data.items[study[indices[0]]].label;
  const last = (indices: ArrayLike<number>) => data.items[study[indices[indices.length - 1]]].label;
  // Every pair's Cohen's kappa (rows: the earlier rater), from confusion counts tallied in one pass.
  const kappa = (i: number, j: number) => {
    const [a, b] = i < j ? [i, j] : [j, i];
    return pairKappa(table, a, b, question.weights, [ref(table.raters[a]).name, ref(table.raters[b]).name]);
  };
  const matrix = table.raters.map((_, i) => table.raters.map((_, j) => (i === j ? null : kappa(i, j))));

  const reliability = settings.reliabilitySet;
  const reliabilityIds = new Set(reliability?.ids);
  const reliabilityItems = reliability ? pairable.filter((u) => inItemSet(data.items[study[u]], reliabilityIds, new Set())) : [];
  // The windows' tables would have the table's raters, so they share its definitions (made once, not per window);
  // each window's coefficients are summed from the table's per-item terms, without building its table.
  const definitions = coefficientDefinitions(question, table.raters.length, settings.alphaLevels, names);
  const subsets = new ItemSubsets(table);
  const windows: QuestionAgreement["windows"] = [];
  for (let start = 0; start < pairable.length; start += settings.windowSize) {
    const windowItems = pairable.subarray(start, start + settings.windowSize);
    subsets.load(windowItems);
    windows.push({
      window: windows.length + 1,
      items: windowItems.length,
      firstItem: first(windowItems),
      lastItem: last(windowItems),
      coefficients: coefficientReportsOf(definitions, definitions.map((def) => def.ofSubset(subsets)), () => null),
    });
  }

  const disagreements = leastAgreement(table, settings.disagreements, Array.from(study, (i) => data.items[i].order)).map((p) => ({ item: items.get(p.item) as StudyItem, agreement: p.agreement, range: p.range, ratings: p.ratings.map((r) => ({ rater: ref(r.rater), value: r.value })) }));

  return {
    task: question.task,
    question: question.key,
    label: question.label,
    level: question.level,
    scale: question.scale,
    raters: table.raters.map(ref),
    counts: { items: table.items.length, ratings: table.value.length, raters: table.raters.length, itemsWithTwoOrMoreRatings: pairable.length, excludedOffScale: q.excluded, draftsLeftOut: q.drafts },
    coefficients,
    reliabilitySet:
      reliabilityItems.length === 0
        ? null
        : {
            rule: `the items of the study's reliability set "${reliability?.name}" (${reliability?.ids.length} ids) rated by two or more annotators (${reliabilityItems.length} found)`,
            items: reliabilityItems.length,
            firstItem: first(reliabilityItems),
            lastItem: last(reliabilityItems),
            coefficients: coefficientReports(resampleItems(table, reliabilityItems), question, settings.bootstrap, settings.alphaLevels, names),
          },
    pairwise: {
      method: `Cohen's kappa, ${question.weights === "unweighted" ? "unweighted" : `${question.weights} weights`}, on the items both raters rated`,
      matrix: matrix.map((row) => row.map((cell) => (cell === null ? null : { value: cell.value, n: cell.n, ...(cell.reason === undefined ? {} : { reason: cell.reason }), ...(cell.note === undefined ? {} : { note: cell.note }) }))),
    },
    confusion: confusionOf(table, pairConfusions(table), ref),
    windows,
    disagreements,
  };
}

/** What the agreement report reads of one task (lib/data/reports.ts): its ratings as columns, the raters' names and, for claim verification, CRScore Table 1. */
export interface GatheredTask {
  data: TaskColumns;
  names: ReadonlyMap<string, string>;
  claimQuality: ClaimQualityReport | null;
  /** When judges answered: every rater's answers (judges too), the judges' ids and names, and the consensus answer per item and question. */
  judges?: { data: TaskColumns; ids: ReadonlySet<string>; names: ReadonlyMap<string, string>; consensus: ReadonlyMap<string, ReadonlyMap<string, AnswerValue>> };
}

/** The judges section of one question from every rater's columns (lib/analysis/judge-agreement.ts). */
function judgesSection(question: Question, judges: NonNullable<GatheredTask["judges"]>, items: ItemSetFilter | undefined, settings: Settings, weights: "unweighted" | "quadratic"): JudgeAgreement | null {
  const data = restrictToItemSet(judges.data, items, new Set());
  const q = data.questions.find((c) => c.question.key === question.key);
  if (!q || q.item.length === 0) return null;
  const table = questionTable(data, q);
  if (!table.raters.some((r) => judges.ids.has(r))) return null;
  const reference = new Map<string, number>();
  for (const [itemId, answers] of judges.consensus) {
    const value = answers.get(question.key);
    const position = value === undefined ? -1 : question.scale.indexOf(value);
    if (position >= 0) reference.set(itemId, position);
  }
  return judgeAgreement(table, judges.ids, judges.names, reference, { weights, bootstrap: settings.bootstrap });
}

/** The agreement report of a study (all tasks, or `options.task`), each task's data read by `readTask` in turn. */
export async function agreementReportOf(study: StudyForAnalysis, options: AgreementOptions, readTask: (task: TaskType) => Promise<GatheredTask>): Promise<AgreementReport> {
  const settings: Settings = {
    bootstrap: bootstrapSettings(options.bootstrap),
    windowSize: options.windowSize ?? 50,
    reliabilitySet: options.reliabilitySet ?? null,
    disagreements: options.disagreements ?? 20,
    alphaLevels: options.alphaLevels,
  };
  const matched = new Set<string>();
  if (options.task && !study.tasks.includes(options.task)) throw new AppError("INVALID_INPUT", { message: `study ${study.slug} has no task ${options.task}; its tasks: ${study.tasks.join(", ")}` });
  const tasks: TaskAgreement[] = [];
  for (const task of options.task ? [options.task] : study.tasks) {
    const gathered = await readTask(task);
    const data = restrictToItemSet(gathered.data, options.items, matched);
    const names = gathered.names;
    const questions = data.questions.filter((q) => q.item.length > 0);
    const tables = questions.map((q) => ({ table: questionTable(data, q), question: q.question }));
    const coefficients = tablesCoefficientReports(tables, settings.bootstrap, settings.alphaLevels, names);
    tasks.push({
      task,
      questions: questions.map((q, k) => ({
        ...questionSection(data, q, tables[k].table, coefficients[k], names, settings),
        judges: gathered.judges ? judgesSection(q.question, gathered.judges, options.items, settings, options.judgeWeights ?? "unweighted") : null,
      })),
      claimQuality: gathered.claimQuality,
    });
  }
  return {
    study: { id: study.id, slug: study.slug, name: study.name },
    itemSet: itemSetStatement(options.items, matched),
    settings: {
      bootstrap: { ...settings.bootstrap, method: "percentile; items resampled with replacement, all their ratings together" },
      counted: countedWork(options.includeDrafts ? "include" : "exclude"),
      windowSize: settings.windowSize,
      reliabilitySet: settings.reliabilitySet && { name: settings.reliabilitySet.name, kind: settings.reliabilitySet.kind, size: settings.reliabilitySet.ids.length },
      disagreements: settings.disagreements,
    },
    tasks,
  };
}
