/**
 * N-gram matching shared by the BLEU ports (CodeReviewer's `count_ngrams`,
 * sacreBLEU's `extract_all_word_ngrams`) and chrF (sacreBLEU's `extract_all_char_ngrams`,
 * `extract_word_ngrams`). N-grams are paths in a trie over integer symbols (word ids or code
 * points), stored in one reused open-addressing table: no string key, map or object per n-gram.
 */

/** A trie of the references' n-grams with per-node counts, reused by every call. */
class NgramTrie {
  /**
   * Open-addressing table, four int32 per slot: parent node, symbol, child node, stamp. A slot is
   * live when its stamp is the current generation, so emptying the table costs nothing.
   */
  private slots = new Int32Array(0);
  private mask = 0;
  private generation = 0;
  /** Per node (0 is the root): max count over the references, count in the reference `countedIn`, count in the hypothesis. */
  refMax = new Int32Array(0);
  refCount = new Int32Array(0);
  countedIn = new Int32Array(0);
  hypCount = new Int32Array(0);
  private nodes = 1;

  /** Empties the trie for up to `maxNodes` nodes. */
  reset(maxNodes: number): void {
    if (this.refMax.length < maxNodes + 1) {
      const size = Math.max(64, 2 ** Math.ceil(Math.log2(maxNodes + 1)));
      this.refMax = new Int32Array(size);
      this.refCount = new Int32Array(size);
      this.countedIn = new Int32Array(size);
      this.hypCount = new Int32Array(size);
    }
    if (this.slots.length < 8 * (maxNodes + 1)) {
      const slots = Math.max(128, 2 ** Math.ceil(Math.log2(2 * (maxNodes + 1))));
      this.slots = new Int32Array(4 * slots);
      this.mask = slots - 1;
      this.rootStamp.fill(0);
      this.generation = 0;
    }
    // Stamps are 32-bit: before the generation would wrap (after 2^32 calls, about a day of
    // nonstop scoring in one worker) every stamp is cleared, so no old slot can look live.
    if (this.generation === -1) {
      this.slots.fill(0);
      this.rootStamp.fill(0);
      this.generation = 0;
    }
    this.generation = (this.generation + 1) | 0;
    this.nodes = 1;
  }

  /** Index in `slots` of the slot for (parent, symbol): its own if live, else the empty one where it would go. */
  private slotOf(parent: number, symbol: number): number {
    const slots = this.slots;
    let h = Math.imul(parent, 0x9e3779b1) ^ Math.imul(symbol, 0x85ebca6b);
    h ^= h >>> 15;
    let at = (h & this.mask) << 2;
    while (slots[at + 3] === this.generation && (slots[at] !== parent || slots[at + 1] !== symbol)) {
      at = (at + 4) & (this.slots.length - 1);
    }
    return at;
  }

  /** Children of the root by symbols below 2^16 (most code points and word ids), addressed directly, stamped like the slots. */
  private rootChild = new Int32Array(1 << 16);
  private rootStamp = new Int32Array(1 << 16);

  /** The child of `parent` by `symbol`, or 0 when the references have no such n-gram. */
  child(parent: number, symbol: number): number {
    if (parent === 0 && symbol >>> 16 === 0) return this.rootStamp[symbol] === this.generation ? this.rootChild[symbol] : 0;
    const at = this.slotOf(parent, symbol);
    return this.slots[at + 3] === this.generation ? this.slots[at + 2] : 0;
  }

  /** The child of `parent` by `symbol`, created with zero counts if new. */
  childOrNew(parent: number, symbol: number): number {
    if (parent === 0 && symbol >>> 16 === 0) {
      if (this.rootStamp[symbol] === this.generation) return this.rootChild[symbol];
      this.rootStamp[symbol] = this.generation;
      return (this.rootChild[symbol] = this.newNode());
    }
    const slots = this.slots;
    const at = this.slotOf(parent, symbol);
    if (slots[at + 3] === this.generation) return slots[at + 2];
    const node = this.newNode();
    slots[at] = parent;
    slots[at + 1] = symbol;
    slots[at + 2] = node;
    slots[at + 3] = this.generation;
    return node;
  }

  private newNode(): number {
    const node = this.nodes++;
    this.refMax[node] = 0;
    this.countedIn[node] = 0;
    this.hypCount[node] = 0;
    return node;
  }
}

const trie = new NgramTrie();

/**
 * Σ_g min(hyp(g), max_r ref_r(g)) over the n-grams g of each order 1..maxOrder (element n-1):
 * the clipped matches of BLEU (several references clip at their maximum) and of chrF (one).
 * Each reference's counts are kept per node and folded into the maximum as they grow; a
 * hypothesis occurrence matches while its running count is below that maximum, so no pass over
 * the n-grams follows the counting.
 */
export function clippedNgramMatches(hyp: ArrayLike<number>, refs: readonly ArrayLike<number>[], maxOrder: number): number[] {
  // With one reference Σ_g min(hyp(g), ref(g)) is symmetric: the trie takes the shorter side,
  // since inserting an n-gram costs more than looking one up (which stops at the first miss).
  if (refs.length === 1 && hyp.length < refs[0].length) return clippedNgramMatches(refs[0], [hyp], maxOrder);
  let bound = 0;
  for (const ref of refs) bound += ref.length * maxOrder;
  trie.reset(bound);
  const { refMax, refCount, countedIn, hypCount } = trie;
  for (let r = 0; r < refs.length; r++) {
    const ref = refs[r];
    const refId = r + 1;
    for (let start = 0; start < ref.length; start++) {
      let node = 0;
      const end = Math.min(start + maxOrder, ref.length);
      for (let i = start; i < end; i++) {
        node = trie.childOrNew(node, ref[i]);
        if (refs.length === 1) {
          refMax[node]++;
          continue;
        }
        const count = countedIn[node] === refId ? refCount[node] + 1 : ((countedIn[node] = refId), 1);
        refCount[node] = count;
        if (count > refMax[node]) refMax[node] = count;
      }
    }
  }
  const matches = new Array<number>(maxOrder).fill(0);
  for (let start = 0; start < hyp.length; start++) {
    let node = 0;
    const end = Math.min(start + maxOrder, hyp.length);
    for (let i = start; i < end; i++) {
      node = trie.child(node, hyp[i]);
      if (node === 0) break; // no longer n-gram from here can be in a reference either
      if (hypCount[node]++ < refMax[node]) matches[i - start]++;
    }
  }
  return matches;
}

/** Number of n-grams of order n (element n-1) in a sequence of `length` symbols. */
export function ngramTotals(length: number, maxOrder: number): number[] {
  return Array.from({ length: maxOrder }, (_, i) => Math.max(length - i, 0));
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

/** Clipped n-gram matches of a hypothesis against references, as token ids (shared by 1a and 1b). */
export function bleuCounts(hyp: Int32Array, refs: readonly Int32Array[], maxOrder: number): BleuCounts {
  return {
    hypLength: hyp.length,
    refLengths: refs.map((r) => r.length),
    correct: clippedNgramMatches(hyp, refs, maxOrder),
    total: ngramTotals(hyp.length, maxOrder),
  };
}
