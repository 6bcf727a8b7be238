import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { BulkTable } from "@/lib/import/bulk-insert";
import { copyRows } from "@/lib/data/import-writer";
import { seededRandom } from "@/lib/stats";

interface Row {
  id: number;
  text: string | null;
  json: Record<string, string> | null;
  flag: boolean | null;
  at: Date | null;
}

const TABLE: BulkTable<Row> = { name: "bulk_round_trip", columns: { id: "integer", text: "text", json: "jsonb", flag: "boolean", at: "timestamp(3)" } };

/** What COPY's text format must escape or could misread, and Unicode beyond ASCII (no NUL: text columns refuse it). */
const PIECES = ["\t", "\n", "\r", "\r\n", "\\", "\\N", "\\.", "\\t", '"', "'", " ", "a", "Z", "0", "é", "ß", "中文", "😀", "\u2028", "\u00a0", "\u0001", "\u007f"];

function randomText(random: () => number): string {
  const parts: string[] = [];
  const length = Math.floor(random() * 40);
  for (let i = 0; i < length; i++) parts.push(random() < 0.6 ? PIECES[Math.floor(random() * PIECES.length)] : String.fromCodePoint(1 + Math.floor(random() * 0xd7ff)));
  return parts.join("");
}

/** Rows with every kind of value, nulls, and runs of one time (the encoder reuses a time's text). */
function randomRows(seed: number, count: number): Row[] {
  const random = seededRandom(seed);
  const times = [new Date(Date.UTC(2026, 10, 27, 6, 0, 0, 123)), new Date(Date.UTC(1999, 0, 1)), new Date(Date.UTC(2030, 5, 30, 23, 59, 59, 999))];
  return Array.from({ length: count }, (_, id) => {
    const time = times[Math.floor(random() * times.length)];
    return {
      id,
      text: random() < 0.1 ? null : randomText(random),
      json: random() < 0.1 ? null : Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, (_, k) => [`${k}${randomText(random)}`, randomText(random)])),
      flag: random() < 0.1 ? null : random() < 0.5,
      // The same time as a new Date object, as the same object, or null.
      at: random() < 0.1 ? null : random() < 0.5 ? new Date(time.getTime()) : time,
    };
  });
}

describe("bulk insert through a real COPY", () => {
  const connection = new pg.Client({ connectionString: inject("databaseUrl") });

  beforeAll(async () => {
    await connection.connect();
    await connection.query(`CREATE TEMP TABLE "bulk_round_trip" (id integer PRIMARY KEY, text text, json jsonb, flag boolean, at timestamp(3))`);
  });
  afterAll(() => connection.end());

  test("any NUL-free text, JSON, boolean and time comes back from PostgreSQL as written, over several chunks", async () => {
    for (const seed of [1, 2, 3]) {
      const rows = randomRows(seed, 15_000);
      const chunks: number[] = [];
      await connection.query(`TRUNCATE "bulk_round_trip"`);
      await copyRows(connection, TABLE, rows, (n) => chunks.push(n));
      expect(chunks.length).toBeGreaterThan(1);
      const stored = await connection.query<{ id: number; text: string | null; json: Record<string, string> | null; flag: boolean | null; at: string | null }>(
        `SELECT id, text, json, flag, to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM "bulk_round_trip" ORDER BY id`,
      );
      expect(stored.rows).toEqual(rows.map((r) => ({ ...r, at: r.at && r.at.toISOString() })));
    }
  });
});
