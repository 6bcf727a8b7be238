/**
 * Typed arrays kept from one call to the next for the sorts' temporaries. A fresh array of
 * 100,000 values costs a page fault per 4 KiB on first touch once the allocator has returned the
 * last one to the system, which on this machine kind took longer than the sort itself (bench
 * agreement: Spearman of 100,000 pairs at 8 ms in a loop, 26 ms with 770 faults when run once
 * after a pause). Each name belongs to one function: it holds the array only while it runs, and
 * nothing it calls meanwhile uses the same name. The contents are what the last holder left
 * (zero them where it matters); arrays past MAX_KEPT_BYTES are not kept.
 */
const MAX_KEPT_BYTES = 16 * 2 ** 20;
const kept = new Map<string, ArrayBuffer>();

function buffer(name: string, bytes: number): ArrayBuffer {
  const held = kept.get(name);
  if (held !== undefined && held.byteLength >= bytes) return held;
  // Room for a larger call than this one, so sizes that creep up do not reallocate each time.
  const fresh = new ArrayBuffer(Math.max(bytes, Math.min(MAX_KEPT_BYTES, 2 * (held?.byteLength ?? 0))));
  if (fresh.byteLength <= MAX_KEPT_BYTES) kept.set(name, fresh);
  return fresh;
}

export const workFloat64 = (name: string, n: number): Float64Array => new Float64Array(buffer(name, 8 * n), 0, n);
export const workInt32 = (name: string, n: number): Int32Array => new Int32Array(buffer(name, 4 * n), 0, n);
export const workUint32 = (name: string, n: number): Uint32Array => new Uint32Array(buffer(name, 4 * n), 0, n);
export const workUint16 = (name: string, n: number): Uint16Array => new Uint16Array(buffer(name, 2 * n), 0, n);
