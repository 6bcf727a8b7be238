/**
 * Consensus of an item's question: the lead's adjudicated value where there is one,
 * otherwise the annotators' value when two or more annotators gave the same value and none
 * another (unanimity). Items rated differently and not adjudicated have no consensus: they are
 * the adjudication queue, most disagreeing first.
 */
import type { ItemAgreement, AnswerValue } from "@/lib/agreement";

export interface ConsensusValue {
  value: AnswerValue;
  source: "unanimous" | "adjudicated";
}

/** The shared value of two or more identical ratings; null when fewer than two or when they differ. */
export function unanimousValue(values: readonly AnswerValue[]): AnswerValue | null {
  if (values.length < 2) return null;
  return values.every((v) => v === values[0]) ? values[0] : null;
}

/** The consensus of one item's question from its ratings and the lead's adjudicated value. */
export function consensusOf(values: readonly AnswerValue[], adjudicated: AnswerValue | undefined): ConsensusValue | null {
  if (adjudicated !== undefined) return { value: adjudicated, source: "adjudicated" };
  const unanimous = unanimousValue(values);
  return unanimous === null ? null : { value: unanimous, source: "unanimous" };
}

/**
 * Adjudication order: least agreement first (the share of agreeing rater pairs, Fleiss' P_i),
 * then the widest spread of numeric ratings, then study order.
 */
export function byDisagreement(a: Pick<ItemAgreement, "agreement" | "range"> & { order: number }, b: Pick<ItemAgreement, "agreement" | "range"> & { order: number }): number {
  return (a.agreement ?? 1) - (b.agreement ?? 1) || (b.range ?? 0) - (a.range ?? 0) || a.order - b.order;
}

/** An item's question waits for adjudication: two or more annotators rated it, not all alike, and the lead has not decided it. */
export function openDisagreement(item: Pick<ItemAgreement, "n" | "agreement">, decided: boolean): boolean {
  return item.n >= 2 && item.agreement !== 1 && !decided;
}

export interface RatingSplit {
  /** Each value given, with how many annotators gave it, most given first (then in first-given order). */
  counts: { value: AnswerValue; count: number }[];
  /** Two or more ratings, all the same. */
  unanimous: boolean;
  /** The most given value is shared: no majority (a 1-1 split of two annotators). */
  tie: boolean;
}

/** How an item's ratings of one question split: where annotators agree, disagree, or tie. */
export function ratingSplit(values: readonly AnswerValue[]): RatingSplit {
  const counts: { value: AnswerValue; count: number }[] = [];
  for (const value of values) {
    const seen = counts.find((c) => c.value === value);
    if (seen) seen.count++;
    else counts.push({ value, count: 1 });
  }
  counts.sort((a, b) => b.count - a.count);
  return { counts, unanimous: values.length >= 2 && counts.length === 1, tie: counts.length >= 2 && counts[0].count === counts[1].count };
}

/** "tie 1–1", "2–1", "unanimous": the split in a few characters. */
export function splitText(split: RatingSplit): string {
  if (split.unanimous) return "unanimous";
  const counts = split.counts.map((c) => c.count).join("–");
  return split.tie ? `tie ${counts}` : counts;
}
