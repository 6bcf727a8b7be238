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

/** Uniform doubles in [0, 1) with 53 random bits, from the integer `seed`. */
export function seededRandom(seed: number): Random {
  const init = splitMix32(seed);
  let s0 = init();
  let s1 = init();
  let s2 = init();
  let s3 = init();
  const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0;
  const next = (): number => {
    const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 = (s2 ^ t) >>> 0;
    s3 = rotl(s3, 11);
    return result;
  };
  return () => ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
}
