/**
 * N-gram counting shared by the BLEU ports (metrics-spec 1a `count_ngrams`, 1b
 * `extract_all_word_ngrams`) and chrF (metrics-spec 2 `extract_all_char_ngrams`,
 * `extract_word_ngrams`).
 */
/** Counts per order: element n-1 maps each n-gram to its count. */
export type NgramCounts = Map<string, number>[];

/**
 * Word n-grams of orders 1..maxOrder. An n-gram's key is its tokens joined by one space, as
 * chrF++ keys them; tokens come from a whitespace split, so the key is unambiguous.
 */
export function wordNgramCounts(tokens: readonly string[], maxOrder: number): NgramCounts {
  const counts: NgramCounts = Array.from({ length: maxOrder }, () => new Map<string, number>());
  for (let start = 0; start < tokens.length; start++) {
    let key = tokens[start];
    const longest = Math.min(maxOrder, tokens.length - start);
    for (let n = 1; n <= longest; n++) {
      if (n > 1) key += " " + tokens[start + n - 1];
      const order = counts[n - 1];
      order.set(key, (order.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/** Per-order totals and clipped matches, element n-1 for order n. */
export interface OrderStatistics {
  hypTotal: number[];
  refTotal: number[];
  matches: number[];
}

interface TrieNode {
  children: Map<number, TrieNode>;
  /** Occurrences in the reference of the n-gram spelled by the path to this node. */
  ref: number;
  /** Occurrences in the hypothesis, counted only where the reference has the n-gram. */
  hyp: number;
  order: number;
}

const newNode = (order: number): TrieNode => ({ children: new Map(), ref: 0, hyp: 0, order });

/**
 * Character n-gram statistics of orders 1..maxOrder, as chrF counts them over code points
 * (Python string slicing): per order, the n-gram totals of both sides and Σ_g min(hyp(g), ref(g)).
 * The reference's n-grams go into a trie keyed by code point, so no substring is ever built.
 */
export function charNgramStatistics(hyp: ArrayLike<number>, ref: ArrayLike<number>, maxOrder: number): OrderStatistics {
  const root = newNode(0);
  for (let start = 0; start < ref.length; start++) {
    let node = root;
    for (let n = 1; n <= maxOrder && start + n <= ref.length; n++) {
      let child = node.children.get(ref[start + n - 1]);
      if (child === undefined) {
        child = newNode(n);
        node.children.set(ref[start + n - 1], child);
      }
      child.ref++;
      node = child;
    }
  }
  const touched: TrieNode[] = [];
  for (let start = 0; start < hyp.length; start++) {
    let node = root;
    for (let n = 1; n <= maxOrder && start + n <= hyp.length; n++) {
      const child = node.children.get(hyp[start + n - 1]);
      if (child === undefined) break; // no longer n-gram from here can be in the reference either
      if (child.hyp === 0) touched.push(child);
      child.hyp++;
      node = child;
    }
  }
  const matches = new Array<number>(maxOrder).fill(0);
  for (const node of touched) matches[node.order - 1] += Math.min(node.hyp, node.ref);
  const totals = (length: number) => Array.from({ length: maxOrder }, (_, i) => Math.max(length - i, 0));
  return { hypTotal: totals(hyp.length), refTotal: totals(ref.length), matches };
}

/** Per-n-gram maximum over several references: the clipping ceiling for multi-reference BLEU. */
export function maxCounts(perReference: readonly NgramCounts[], maxOrder: number): NgramCounts {
  if (perReference.length === 1) return perReference[0];
  const merged: NgramCounts = Array.from({ length: maxOrder }, () => new Map<string, number>());
  for (const counts of perReference) {
    for (let i = 0; i < maxOrder; i++) {
      const into = merged[i];
      for (const [key, count] of counts[i]) {
        if (count > (into.get(key) ?? 0)) into.set(key, count);
      }
    }
  }
  return merged;
}

/** Σ_g min(hyp(g), ref(g)): the clipped match count of one order. */
export function clippedMatches(hyp: ReadonlyMap<string, number>, ref: ReadonlyMap<string, number>): number {
  let matches = 0;
  for (const [key, count] of hyp) {
    const limit = ref.get(key);
    if (limit !== undefined) matches += Math.min(count, limit);
  }
  return matches;
}

/** Total number of n-grams in one order. */
export function totalCount(counts: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const count of counts.values()) total += count;
  return total;
}

/** Sufficient statistics of one BLEU segment before the reference length is chosen. */
export interface BleuCounts {
  hypLength: number;
  refLengths: number[];
  /** Clipped matches per order. */
  correct: number[];
  /** max(hypLength − n + 1, 0) per order. */
  total: number[];
}

/** Clipped n-gram matches of a tokenised hypothesis against tokenised references (shared by 1a and 1b). */
export function bleuCounts(hyp: readonly string[], refs: readonly (readonly string[])[], maxOrder: number): BleuCounts {
  const refMax = maxCounts(
    refs.map((ref) => wordNgramCounts(ref, maxOrder)),
    maxOrder,
  );
  const hypCounts = wordNgramCounts(hyp, maxOrder);
  const correct: number[] = [];
  const total: number[] = [];
  for (let n = 1; n <= maxOrder; n++) {
    correct.push(clippedMatches(hypCounts[n - 1], refMax[n - 1]));
    total.push(Math.max(hyp.length - n + 1, 0));
  }
  return { hypLength: hyp.length, refLengths: refs.map((r) => r.length), correct, total };
}
