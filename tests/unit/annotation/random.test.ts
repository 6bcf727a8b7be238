import { describe, expect, test } from "vitest";
import { hashSeed, letterLabel, seededShuffle } from "@/lib/annotation/random";

describe("reproducible shuffles", () => {
  test("hashSeed is deterministic and separates its parts", () => {
    expect(hashSeed(1, "user", "item")).toBe(hashSeed(1, "user", "item"));
    expect(hashSeed(1, "ab", "c")).not.toBe(hashSeed(1, "a", "bc"));
    expect(hashSeed(1, "x")).not.toBe(hashSeed(2, "x"));
  });

  test("seededShuffle is a permutation, the same for the same seed, and leaves its input alone", () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const a = seededShuffle(items, 42);
    expect(a).toEqual(seededShuffle(items, 42));
    expect(a.slice().sort((x, y) => x - y)).toEqual(items);
    expect(a).not.toEqual(items);
    expect(seededShuffle(items, 43)).not.toEqual(a);
    expect(items[0]).toBe(0);
  });

  test("every position is reachable: first elements over many seeds cover all items", () => {
    const seen = new Set<number>();
    for (let seed = 0; seed < 400; seed++) seen.add(seededShuffle([0, 1, 2, 3, 4], seed)[0]);
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  test("letter labels", () => {
    expect([0, 1, 25, 26, 27, 51, 52].map(letterLabel)).toEqual(["A", "B", "Z", "AA", "AB", "AZ", "BA"]);
  });
});
