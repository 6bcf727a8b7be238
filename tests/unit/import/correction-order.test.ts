import { describe, expect, test } from "vitest";
import { correctionOrder } from "@/lib/import/write-bundle";
import { seededRandom } from "@/lib/stats";

type Row = Parameters<typeof correctionOrder>[0][number];

const row = (id: string, correctsId: string | null = null): Row => ({ id, codeChangeId: "c", externalId: id, text: id, kind: "CLAIM", source: "", position: 0, correctsId });

/** Depth by walking each chain (quadratic, fine for a test): 0 for a row correcting none of the rows. */
function depthOf(rows: Row[], r: Row): number {
  const parent = rows.find((p) => p.id === r.correctsId);
  return parent ? 1 + depthOf(rows, parent) : 0;
}

describe("correctionOrder: corrected pseudo-references are inserted before their corrections", () => {
  test("chains are inserted from their start; rows correcting stored claims (not among the rows) come first", () => {
    const rows = [row("c", "b"), row("b", "a"), row("a"), row("d", "stored")];
    expect(correctionOrder(rows).map((r) => r.id)).toEqual(["a", "d", "b", "c"]);
  });

  test("any forest of corrections in any order: each row after the one it corrects, by depth, in the given order within a depth", () => {
    const random = seededRandom(5);
    for (let run = 0; run < 200; run++) {
      const count = 1 + Math.floor(random() * 40);
      const rows: Row[] = [];
      for (let i = 0; i < count; i++) {
        const pick = random();
        rows.push(row(`r${i}`, pick < 0.4 || i === 0 ? null : pick < 0.5 ? `stored${i}` : `r${Math.floor(random() * i)}`));
      }
      for (let i = rows.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [rows[i], rows[j]] = [rows[j], rows[i]];
      }
      const ordered = correctionOrder(rows);
      expect([...ordered].sort((a, b) => (a.id as string).localeCompare(b.id as string))).toEqual([...rows].sort((a, b) => (a.id as string).localeCompare(b.id as string)));
      const position = new Map(ordered.map((r, i) => [r.id, i]));
      for (const r of ordered) if (position.has(r.correctsId ?? undefined)) expect(position.get(r.correctsId ?? undefined)).toBeLessThan(position.get(r.id) as number);
      const keys = ordered.map((r) => [depthOf(rows, r), rows.indexOf(r)]);
      for (let i = 1; i < keys.length; i++) expect(keys[i][0] > keys[i - 1][0] || (keys[i][0] === keys[i - 1][0] && keys[i][1] > keys[i - 1][1])).toBe(true);
    }
  });

  test("corrections in a cycle are refused", () => {
    expect(() => correctionOrder([row("a", "b"), row("b", "a"), row("c")])).toThrow(/cycle/);
    expect(() => correctionOrder([row("a", "a")])).toThrow(/cycle/);
    expect(() => correctionOrder([row("x"), row("a", "b"), row("b", "c"), row("c", "a")])).toThrow(/cycle/);
  });
});
