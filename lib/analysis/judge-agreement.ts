/**
 * Judges against humans on one question, as SWE-Judge §5.2 (RQ2, Figure 4) compares them: Cohen's
 * κ of every pair of annotators (Human–Human: min, max and mean over the pairs) beside the κ of a
 * judge with each annotator and their mean (Human–Judge, with a bootstrap CI over items);
 * unweighted as in the paper, quadratic on request. Against the consensus (or gold) answers:
 * the judge's accuracy, and on a binary question its precision, recall and F1 for the positive
 * answer (c-CRAB §4.2.1 refines its filter to a precision threshold on a gold set), with CIs.
 */
import { pairConfusions, pairKappa, type AnswerTable, type WeightScheme } from "@/lib/agreement";
import { wilsonInterval } from "@/lib/stats/proportion";
import { itemBootstrapCi, type BootstrapSettings, type Interval } from "./resample";

/** A rater and their name (as the agreement report's RaterRef). */
interface RaterRef {
  id: string;
  name: string;
}

export interface PairKappa {
  raters: [RaterRef, RaterRef];
  value: number | null;
  /** Items both rated. */
  n: number;
  reason?: string;
}

export interface AnnotatorKappa {
  rater: RaterRef;
  value: number | null;
  n: number;
  reason?: string;
}

/** A proportion with its 95 % Wilson interval (null when no item counts, with the reason). */
export interface Rate {
  value: number | null;
  n: number;
  ci: [number, number] | null;
  reason?: string;
}

export interface AgainstConsensus {
  /** Items the judge answered that have a consensus (or gold) answer. */
  items: number;
  accuracy: Rate;
  /** Binary questions only: for the positive answer (the scale's second, e.g. "yes"). */
  positive?: string;
  precision?: Rate;
  recall?: Rate;
  f1?: { value: number | null; ci: Interval | null; reason?: string };
  /** Why nothing could be compared (no item with a consensus answer). */
  reason?: string;
}

export interface JudgeAgreement {
  method: string;
  /** `reason`: why min, max and mean are undefined (one annotator, no pair rated the same items, every pair's κ undefined). */
  humanHuman: { min: number | null; max: number | null; mean: number | null; pairs: PairKappa[]; reason?: string };
  /** `reason`: why the mean is undefined (no annotator rated an item the judge answered, or every κ undefined). */
  humanJudge: Record<string, { mean: number | null; ci: Interval | null; perAnnotator: AnnotatorKappa[]; reason?: string }>;
  /** By judge rater name: against the consensus answers (adjudicated or unanimous among the annotators, gold ones included). */
  againstConsensus: Record<string, AgainstConsensus>;
}

const mean = (values: readonly number[]) => (values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length);

/** The defined κ values' mean of a judge (rater index j) with every annotator (indices `humans`) in `table`. */
function meanHumanJudge(table: AnswerTable, j: number, humans: readonly number[], weights: WeightScheme): number | null {
  const confusions = pairConfusions(table);
  const values = humans.map((h) => pairKappa(table, Math.min(h, j), Math.max(h, j), weights, ["", ""], confusions).value).filter((v): v is number => v !== null);
  return mean(values);
}

const rate = (hits: number, n: number, whyNone: string): Rate => ({ value: n === 0 ? null : hits / n, n, ci: wilsonInterval(hits, n), ...(n === 0 ? { reason: whyNone } : {}) });

/** F1 = 2TP / (2TP + FP + FN); null when the judge and the reference never say the positive answer. */
const f1Of = (tp: number, fp: number, fn: number) => (2 * tp + fp + fn === 0 ? null : (2 * tp) / (2 * tp + fp + fn));

/**
 * The judges section of one question. `table` holds every rater's answers (values: positions on
 * the question's scale); `judges` are the judge raters' ids; `reference` the consensus answer's
 * scale position per item id; the question is binary when its scale has two answers.
 */
export function judgeAgreement(
  table: AnswerTable,
  judges: ReadonlySet<string>,
  names: ReadonlyMap<string, string>,
  reference: ReadonlyMap<string, number>,
  options: { weights: WeightScheme; bootstrap: BootstrapSettings | null },
): JudgeAgreement {
  const ref = (id: string): RaterRef => ({ id, name: names.get(id) ?? id });
  const { weights } = options;
  const confusions = pairConfusions(table);
  const kappa = (a: number, b: number) => pairKappa(table, Math.min(a, b), Math.max(a, b), weights, [ref(table.raters[a]).name, ref(table.raters[b]).name], confusions);
  const humans = table.raters.flatMap((id, i) => (judges.has(id) ? [] : [i]));
  const judgeIndices = table.raters.flatMap((id, i) => (judges.has(id) ? [i] : []));

  const pairs: PairKappa[] = [];
  for (let x = 0; x < humans.length; x++) {
    for (let y = x + 1; y < humans.length; y++) {
      const k = kappa(humans[x], humans[y]);
      if (k.n === 0) continue; // SWE-Judge's pairs rated the same items; pairs with none in common are no pair
      pairs.push({ raters: [ref(table.raters[humans[x]]), ref(table.raters[humans[y]])], value: k.value, n: k.n, ...(k.reason === undefined ? {} : { reason: k.reason }) });
    }
  }
  const defined = pairs.flatMap((p) => (p.value === null ? [] : [p.value]));

  const humanJudge: JudgeAgreement["humanJudge"] = {};
  const againstConsensus: JudgeAgreement["againstConsensus"] = {};
  const binary = table.scale.length === 2;
  for (const j of judgeIndices) {
    const name = ref(table.raters[j]).name;
    const perAnnotator: AnnotatorKappa[] = humans.flatMap((h) => {
      const k = kappa(h, j);
      return k.n === 0 ? [] : [{ rater: ref(table.raters[h]), value: k.value, n: k.n, ...(k.reason === undefined ? {} : { reason: k.reason }) }];
    });
    const m = mean(perAnnotator.flatMap((p) => (p.value === null ? [] : [p.value])));
    const ci = m !== null && options.bootstrap && options.bootstrap.nResamples > 0 ? itemBootstrapCi(table, (t) => meanHumanJudge(t, j, humans, weights), options.bootstrap) : null;
    const why =
      m !== null ? undefined : perAnnotator.length === 0 ? (humans.length === 0 ? "no annotator answered this question" : "no annotator rated an item the judge answered") : "κ is undefined with every annotator (see each annotator's reason)";
    humanJudge[name] = { mean: m, ci, perAnnotator, ...(why ? { reason: why } : {}) };

    // The judge's answer and the reference of each item that has both.
    const answered: [number, number][] = [];
    for (let u = 0; u < table.items.length; u++) {
      const expected = reference.get(table.items[u]);
      if (expected === undefined) continue;
      for (let e = table.itemStart[u]; e < table.itemStart[u + 1]; e++) if (table.rater[e] === j) answered.push([table.value[e], expected]);
    }
    const none = "no item the judge answered has a consensus answer";
    const against: AgainstConsensus = { items: answered.length, accuracy: rate(answered.filter(([a, b]) => a === b).length, answered.length, none), ...(answered.length === 0 ? { reason: none } : {}) };
    if (binary) {
      const count = (pairsOf: readonly [number, number][]) => ({
        tp: pairsOf.filter(([a, b]) => a === 1 && b === 1).length,
        fp: pairsOf.filter(([a, b]) => a === 1 && b === 0).length,
        fn: pairsOf.filter(([a, b]) => a === 0 && b === 1).length,
      });
      const { tp, fp, fn } = count(answered);
      const f1 = f1Of(tp, fp, fn);
      // F1's CI: the items resampled with replacement, as the κ CIs.
      const f1Table = { ...table, items: answered.map((_, i) => String(i)) };
      const f1Ci =
        f1 !== null && options.bootstrap && options.bootstrap.nResamples > 0
          ? itemBootstrapCi(
              { items: f1Table.items, raters: ["judge", "reference"], scale: [0, 1], scaleDeclared: true, itemStart: Int32Array.from({ length: answered.length + 1 }, (_, i) => 2 * i), rater: Int32Array.from(answered.flatMap(() => [0, 1])), value: Int32Array.from(answered.flat()) },
              (t) => {
                const resampled: [number, number][] = [];
                for (let i = 0; i < t.items.length; i++) resampled.push([t.value[2 * i], t.value[2 * i + 1]]);
                const c = count(resampled);
                return f1Of(c.tp, c.fp, c.fn);
              },
              options.bootstrap,
            )
          : null;
      const positive = String(table.scale[1]);
      Object.assign(against, {
        positive,
        precision: rate(tp, tp + fp, answered.length === 0 ? none : `the judge never answered ${positive}`),
        recall: rate(tp, tp + fn, answered.length === 0 ? none : `the consensus is never ${positive}`),
        f1: { value: f1, ci: f1Ci, ...(f1 === null ? { reason: answered.length === 0 ? none : `neither the judge nor the consensus answered ${positive}` } : {}) },
      });
    }
    againstConsensus[name] = against;
  }
  return {
    method: `Cohen's kappa, ${weights === "unweighted" ? "unweighted (SWE-Judge §5.2)" : `${weights} weights`}, of each pair on the items both rated; Human–Judge CI: percentile bootstrap of the mean over items`,
    humanHuman: {
      min: defined.length ? Math.min(...defined) : null,
      max: defined.length ? Math.max(...defined) : null,
      mean: mean(defined),
      pairs,
      ...(defined.length > 0 ? {} : { reason: humans.length < 2 ? `${humans.length === 1 ? "one annotator" : "no annotator"}: no pair of annotators to compare` : pairs.length === 0 ? "no pair of annotators rated the same items" : "κ is undefined for every pair (see each pair's reason)" }),
    },
    humanJudge,
    againstConsensus,
  };
}
