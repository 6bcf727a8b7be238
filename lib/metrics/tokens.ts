/**
 * Tokens as spans of their text, found in one scan, and interned to integer ids without a
 * substring per token: what the n-gram counting of BLEU and chrF++ needs.
 */

/** Token k of the last scan is `text.slice(start[k], end[k])`; the buffers are reused by every scan. */
export class TokenSpans {
  text = "";
  count = 0;
  start = new Int32Array(256);
  end = new Int32Array(256);

  /** Starts a scan of `text`. */
  reset(text: string): this {
    this.text = text;
    this.count = 0;
    return this;
  }

  push(start: number, end: number): void {
    if (this.count === this.start.length) {
      const grow = (old: Int32Array) => {
        const grown = new Int32Array(2 * old.length);
        grown.set(old);
        return grown;
      };
      this.start = grow(this.start);
      this.end = grow(this.end);
    }
    this.start[this.count] = start;
    this.end[this.count++] = end;
  }

  /** The tokens as strings. */
  strings(): string[] {
    const tokens = new Array<string>(this.count);
    for (let k = 0; k < this.count; k++) tokens[k] = this.text.slice(this.start[k], this.end[k]);
    return tokens;
  }
}

/**
 * Token ids, kept across calls (a corpus reuses its vocabulary) and forgotten between calls once
 * they pass VOCABULARY_LIMIT: ids are only compared within one call.
 */
const VOCABULARY_LIMIT = 1 << 20;
let vocabulary: string[] = [];
/** Open addressing: slot → id + 1 (0 empty), keyed by the token's hash of UTF-16 units. */
let slots = new Int32Array(1 << 12);
let slotHash = new Int32Array(1 << 12);

function unitsHash(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h ^ (h >>> 16);
}

function sameUnits(token: string, text: string, start: number, end: number): boolean {
  if (token.length !== end - start) return false;
  for (let i = 0; i < token.length; i++) if (token.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

function insert(id: number, hash: number): void {
  const mask = slots.length - 1;
  let slot = hash & mask;
  while (slots[slot] !== 0) slot = (slot + 1) & mask;
  slots[slot] = id + 1;
  slotHash[slot] = hash;
}

/** The id of `text.slice(start, end)`, interned if new. */
function tokenId(text: string, start: number, end: number): number {
  const hash = unitsHash(text, start, end);
  const mask = slots.length - 1;
  let slot = hash & mask;
  for (let entry = slots[slot]; entry !== 0; entry = slots[slot]) {
    if (slotHash[slot] === hash && sameUnits(vocabulary[entry - 1], text, start, end)) return entry - 1;
    slot = (slot + 1) & mask;
  }
  const id = vocabulary.length;
  vocabulary.push(text.slice(start, end));
  if (2 * vocabulary.length > slots.length) {
    const old = vocabulary;
    slots = new Int32Array(2 * slots.length);
    slotHash = new Int32Array(slots.length);
    for (let k = 0; k < old.length; k++) insert(k, unitsHash(old[k], 0, old[k].length));
  } else {
    slots[slot] = id + 1;
    slotHash[slot] = hash;
  }
  return id;
}

/** Starts a call whose token ids are compared with each other: forgets the vocabulary if it grew too large. */
export function startVocabulary(): void {
  if (vocabulary.length <= VOCABULARY_LIMIT) return;
  vocabulary = [];
  slots = new Int32Array(1 << 12);
  slotHash = new Int32Array(1 << 12);
}

/** A reused buffer for one text's token ids (the hypothesis', or one reference's). */
export class IdBuffer {
  ids = new Int32Array(256);
}

/** Buffers for the k-th reference of a call, reused by every call. */
const referenceBuffers: IdBuffer[] = [];
export const referenceIdBuffer = (k: number): IdBuffer => (referenceBuffers[k] ??= new IdBuffer());

/** The ids of the scanned tokens (one call's ids: see startVocabulary), in `buffer`: valid until its next use. */
export function spanIds(spans: TokenSpans, buffer: IdBuffer): Int32Array {
  if (buffer.ids.length < spans.count) buffer.ids = new Int32Array(2 * spans.count);
  const ids = buffer.ids.subarray(0, spans.count);
  for (let k = 0; k < spans.count; k++) ids[k] = tokenId(spans.text, spans.start[k], spans.end[k]);
  return ids;
}
