import { describe, expect, test } from "vitest";
import { orderedIds } from "@/lib/import/row-ids";
import { seededRandom } from "@/lib/stats";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Six bytes drawn from a seeded generator. */
function bytes(random: () => number): Uint8Array {
  return Uint8Array.from({ length: 6 }, () => Math.floor(random() * 256));
}

describe("ordered row ids", () => {
  test("the time in the first 48 bits, version 7, the random bits, the variant, then the counter", () => {
    // 2026-11-27T06:00:00.123Z is 0x01a21b96d77b ms; of the bytes ab cd ef 12 34 56: "abc", the
    // variant 8 | (0xd & 3) = 9, "ef1", "2345" (the last hex digit is not used).
    const next = orderedIds(new Date(Date.UTC(2026, 10, 27, 6, 0, 0, 123)), Uint8Array.from([0xab, 0xcd, 0xef, 0x12, 0x34, 0x56]));
    expect(next()).toBe("01a21b96-d77b-7abc-9ef1-234500000000");
    expect(next()).toBe("01a21b96-d77b-7abc-9ef1-234500000001");
  });

  test("any time and random bits: valid version 7 UUIDs, each greater than the one before", () => {
    const random = seededRandom(7);
    for (let run = 0; run < 200; run++) {
      const next = orderedIds(new Date(Math.floor(random() * 2 ** 47)), bytes(random));
      const ids = Array.from({ length: 300 }, next);
      for (const id of ids) expect(id).toMatch(UUID_V7);
      for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    }
  });

  test("a later generator's ids sort after an earlier one's; generators of the same time differ by their random bits", () => {
    const random = seededRandom(11);
    const earlier = orderedIds(new Date(1_000_000), bytes(random));
    const later = orderedIds(new Date(1_000_001), bytes(random));
    const last = Array.from({ length: 1000 }, earlier).at(-1) as string;
    expect(later() > last).toBe(true);
    const seen = new Set<string>();
    for (let k = 0; k < 100; k++) {
      const next = orderedIds(new Date(1_000_000), bytes(random));
      for (let i = 0; i < 10; i++) seen.add(next());
    }
    expect(seen.size).toBe(1000);
  });
});
