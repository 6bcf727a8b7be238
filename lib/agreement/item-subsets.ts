import { cohenKappa, type CohenResult, pairKappa } from "./cohen";
import { type AgreementComponents, agreementComponents, summedComponents, type UnitCounts, unitCounts } from "./counts";
import { type ChanceCorrectedResult, fleissFromComponents } from "./fleiss";
import { gwetFromParts, type GwetResult } from "./gwet";
import { type AlphaResult, alphaFromCoincidences, coincidences } from "./krippendorff";
import { type PairConfusions, tallyPairs } from "./pairs";
import { percentFromComponents } from "./percent-agreement";
import { unpairedReason } from "./reasons";
import type { AnswerTable } from "./table";
import type { AgreementResult, Level, WeightScheme } from "./types";
import { agreementWeights, scalePositions } from "./weights";

/**
 * Coefficients of subsets of one table's items (e.g. the consecutive windows of agreement over
 * time) from the table's per-item counts, without building each subset's table. Every sum adds
 * the same per-item terms in the same item order as on the subset's own table, so a
 * coefficient (value, n and reason) is the one computed on that table (resampleItems(table,
 * items)) to the last bit. Load a subset, then read its coefficients; the sums they share are
 * made once per subset, and the per-item terms once per table.
 */
export class ItemSubsets {
  readonly table: AnswerTable;
  private readonly counts: UnitCounts;
  /** Per weight scheme: the agreement weights on the scale and each item's weighted agreement. */
  private readonly weighted = new Map<WeightScheme, { weights: number[][]; unitAgreement: Float64Array }>();
  private items: Int32Array = new Int32Array(0);
  // Per-subset memos, cleared by load().
  private readonly components = new Map<WeightScheme | "none", Omit<AgreementComponents, "unitAgreement">>();
  private coincidenceSums: { o: Float64Array; units: number } | null = null;
  private confusions: PairConfusions | null = null;

  constructor(table: AnswerTable) {
    this.table = table;
    this.counts = unitCounts(table);
  }

  /** Sets the subset (indices into table.items, in order); kept by reference until the next load. */
  load(items: Int32Array): this {
    this.items = items;
    this.components.clear();
    this.coincidenceSums = null;
    this.confusions = null;
    return this;
  }

  private readonly noPairsReason = () => unpairedReason({ items: this.items, raters: this.table.raters });

  private weightsOf(scheme: WeightScheme): { weights: number[][]; unitAgreement: Float64Array } {
    let known = this.weighted.get(scheme);
    if (!known) {
      const weights = agreementWeights(scheme, scalePositions(this.table.scale));
      known = { weights, unitAgreement: agreementComponents(this.counts, weights).unitAgreement };
      this.weighted.set(scheme, known);
    }
    return known;
  }

  /** The subset's components, unweighted (null) or weighted by `scheme` as gwetAc weighs them. */
  private componentsOf(scheme: WeightScheme | null): Omit<AgreementComponents, "unitAgreement"> {
    const key = scheme ?? "none";
    let known = this.components.get(key);
    if (!known) {
      const unitAgreement = scheme === null ? agreementComponents(this.counts, null).unitAgreement : this.weightsOf(scheme).unitAgreement;
      known = summedComponents(this.counts, unitAgreement, this.items);
      this.components.set(key, known);
    }
    return known;
  }

  /** The subset's pair confusions (pairConfusions of its table). */
  pairConfusions(): PairConfusions {
    return (this.confusions ??= tallyPairs(this.table, this.items));
  }

  percentAgreement(): AgreementResult {
    return percentFromComponents(this.componentsOf(null), this.noPairsReason);
  }

  /** Fleiss' kappa (fleissKappa, method "fleiss"). */
  fleissKappa(): ChanceCorrectedResult {
    return fleissFromComponents(this.componentsOf(null), this.table.scale.length, "fleiss", this.noPairsReason);
  }

  /** Gwet's AC1 or AC2 (gwetAc), without the standard error. */
  gwetAc(scheme: WeightScheme = "unweighted"): GwetResult {
    return gwetFromParts(this.componentsOf(scheme), scheme, this.weightsOf(scheme).weights, this.noPairsReason);
  }

  krippendorffAlpha(level: Level): AlphaResult {
    const { o, units } = (this.coincidenceSums ??= coincidences(this.counts, this.items));
    return alphaFromCoincidences(o, units, level, this.table.scale, this.noPairsReason);
  }

  /** Cohen's kappa of a two-rater table (cohenKappa; `names` name the raters in reasons, default their ids). */
  cohenKappa(scheme: WeightScheme = "unweighted", names?: readonly [string, string]): CohenResult {
    const { raters } = this.table;
    // Other rater counts do not depend on the items: the table's own answer (none, or an error) is the subset's.
    if (raters.length !== 2) return cohenKappa(this.table, { weights: scheme });
    return pairKappa(this.table, 0, 1, scheme, names ?? [raters[0], raters[1]], this.pairConfusions());
  }
}
