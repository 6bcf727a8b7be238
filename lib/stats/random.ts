/**
 * Seeded pseudo-random numbers for reproducible resampling: xoshiro128** 1.1
 * (Blackman & Vigna 2018, https://prng.di.unimi.it/xoshiro128starstar.c), 128-bit state,
 * period 2^128 - 1, seeded by SplitMix32 so any integer seed gives a well-mixed state.
 * It cannot reproduce NumPy's PCG64 stream; results agree with SciPy only in distribution.
 */
export type Random = () => number;

function splitMix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/**
 * Uniform doubles in [0, 1) with 53 random bits, from the integer `seed`. The state lives in
 * an Int32Array (signed views of the same 32-bit words), so no draw allocates a heap number.
 */
export function seededRandom(seed: number): Random {
  const init = splitMix32(seed);
  const s = new Int32Array(4);
  for (let k = 0; k < 4; k++) s[k] = init();
  // Two steps of the generator per double: the state is read once and written once.
  return () => {
    let s0 = s[0];
    let s1 = s[1];
    let s2 = s[2];
    let s3 = s[3];
    let x = Math.imul(s1, 5);
    const high = Math.imul((x << 7) | (x >>> 25), 9);
    let t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    x = Math.imul(s1, 5);
    const low = Math.imul((x << 7) | (x >>> 25), 9);
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
    // `>>>` reads the words as unsigned: 27 + 26 bits, as in the reference generator.
    return ((high >>> 5) * 67108864 + (low >>> 6)) / 9007199254740992;
  };
}
