/**
 * N-gram matching shared by the BLEU ports (metrics-spec 1a `count_ngrams`, 1b
 * `extract_all_word_ngrams`) and chrF (metrics-spec 2 `extract_all_char_ngrams`,
 * `extract_word_ngrams`). N-grams are paths in a trie over integer symbols (word ids or code
 * points), stored in one reused open-addressing table: no string key, map or object per n-gram.
 */

/** A trie of the references' n-grams with per-node counts, reused by every call. */
class NgramTrie {
  /** Slot → (parent node, symbol) → child node; a slot is live when its stamp is the generation. */
  private slotParent = new Int32Array(0);
  private slotSymbol = new Int32Array(0);
  private slotChild = new Int32Array(0);
  private slotStamp = new Uint32Array(0);
  private mask = 0;
  private generation = 0;
  /** Per node (0 is the root): max count over the references, count in the current reference, in the hypothesis, order. */
  ref = new Int32Array(0);
  current = new Int32Array(0);
  hyp = new Int32Array(0);
  order = new Uint8Array(0);
  private nodes = 1;

  /** Empties the trie for up to `maxNodes` nodes. */
  reset(maxNodes: number): void {
    if (this.ref.length < maxNodes + 1) {
      const size = Math.max(64, 2 ** Math.ceil(Math.log2(maxNodes + 1)));
      this.ref = new Int32Array(size);
      this.current = new Int32Array(size);
      this.hyp = new Int32Array(size);
      this.order = new Uint8Array(size);
    }
    if (this.slotStamp.length < 2 * (maxNodes + 1)) {
      const slots = Math.max(128, 2 ** Math.ceil(Math.log2(2 * (maxNodes + 1))));
      this.slotParent = new Int32Array(slots);
      this.slotSymbol = new Int32Array(slots);
      this.slotChild = new Int32Array(slots);
      this.slotStamp = new Uint32Array(slots);
      this.mask = slots - 1;
      this.generation = 0;
    }
    // Stamps are 32-bit: before the generation would wrap (after 2^32 calls, about a day of
    // nonstop scoring in one worker) every stamp is cleared, so no old slot can look live.
    if (this.generation === 0xffffffff) {
      this.slotStamp.fill(0);
      this.generation = 0;
    }
    this.generation++;
    this.nodes = 1;
  }

  private slotOf(parent: number, symbol: number): number {
    let h = Math.imul(parent, 0x9e3779b1) ^ Math.imul(symbol, 0x85ebca6b);
    h ^= h >>> 15;
    let slot = h & this.mask;
    while (this.slotStamp[slot] === this.generation && (this.slotParent[slot] !== parent || this.slotSymbol[slot] !== symbol)) {
      slot = (slot + 1) & this.mask;
    }
    return slot;
  }

  /** The child of `parent` by `symbol`, or 0 when the references have no such n-gram. */
  child(parent: number, symbol: number): number {
    const slot = this.slotOf(parent, symbol);
    return this.slotStamp[slot] === this.generation ? this.slotChild[slot] : 0;
  }

  /** The child of `parent` by `symbol`, created (with zero counts) at order `order` if new. */
  childOrNew(parent: number, symbol: number, order: number): number {
    const slot = this.slotOf(parent, symbol);
    if (this.slotStamp[slot] === this.generation) return this.slotChild[slot];
    const node = this.nodes++;
    this.slotStamp[slot] = this.generation;
    this.slotParent[slot] = parent;
    this.slotSymbol[slot] = symbol;
    this.slotChild[slot] = node;
    this.ref[node] = 0;
    this.current[node] = 0;
    this.hyp[node] = 0;
    this.order[node] = order;
    return node;
  }
}

const trie = new NgramTrie();
let touched = new Int32Array(256);

function touch(count: number, node: number): void {
  if (count === touched.length) {
    const grown = new Int32Array(2 * count);
    grown.set(touched);
    touched = grown;
  }
  touched[count] = node;
}

/**
 * Σ_g min(hyp(g), max_r ref_r(g)) over the n-grams g of each order 1..maxOrder (element n-1):
 * the clipped matches of BLEU (several references clip at their maximum) and of chrF (one).
 */
export function clippedNgramMatches(hyp: ArrayLike<number>, refs: readonly ArrayLike<number>[], maxOrder: number): number[] {
  let bound = 0;
  for (const ref of refs) bound += ref.length * maxOrder;
  trie.reset(bound);
  const { ref: refCount, current, hyp: hypCount, order } = trie;
  for (const ref of refs) {
    let seen = 0;
    for (let start = 0; start < ref.length; start++) {
      let node = 0;
      for (let n = 1; n <= maxOrder && start + n <= ref.length; n++) {
        node = trie.childOrNew(node, ref[start + n - 1], n);
        if (current[node]++ === 0) touch(seen++, node);
      }
    }
    for (let k = 0; k < seen; k++) {
      const node = touched[k];
      if (current[node] > refCount[node]) refCount[node] = current[node];
      current[node] = 0;
    }
  }
  let seen = 0;
  for (let start = 0; start < hyp.length; start++) {
    let node = 0;
    for (let n = 1; n <= maxOrder && start + n <= hyp.length; n++) {
      node = trie.child(node, hyp[start + n - 1]);
      if (node === 0) break; // no longer n-gram from here can be in a reference either
      if (hypCount[node]++ === 0) touch(seen++, node);
    }
  }
  const matches = new Array<number>(maxOrder).fill(0);
  for (let k = 0; k < seen; k++) {
    const node = touched[k];
    matches[order[node] - 1] += Math.min(hypCount[node], refCount[node]);
  }
  return matches;
}

/** Number of n-grams of order n (element n-1) in a sequence of `length` symbols. */
export function ngramTotals(length: number, maxOrder: number): number[] {
  return Array.from({ length: maxOrder }, (_, i) => Math.max(length - i, 0));
}

/**
 * Word ids, kept across calls (a corpus reuses its vocabulary) and forgotten when they grow past
 * VOCABULARY_LIMIT: ids are only compared within one call of tokenSymbols.
 */
const tokenIds = new Map<string, number>();
const VOCABULARY_LIMIT = 1 << 20;

/** The tokens of several texts as integer symbols from one vocabulary. */
export function tokenSymbols(texts: readonly (readonly string[])[]): Int32Array[] {
  if (tokenIds.size > VOCABULARY_LIMIT) tokenIds.clear();
  return texts.map((tokens) => {
    const symbols = new Int32Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) {
      let id = tokenIds.get(tokens[i]);
      if (id === undefined) {
        id = tokenIds.size;
        tokenIds.set(tokens[i], id);
      }
      symbols[i] = id;
    }
    return symbols;
  });
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
  const [hypSymbols, ...refSymbols] = tokenSymbols([hyp, ...refs]);
  return {
    hypLength: hyp.length,
    refLengths: refs.map((r) => r.length),
    correct: clippedNgramMatches(hypSymbols, refSymbols, maxOrder),
    total: ngramTotals(hyp.length, maxOrder),
  };
}
