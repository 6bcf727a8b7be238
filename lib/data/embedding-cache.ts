/** The EmbeddingCache table as the embeddings client's store (lib/embeddings/http.ts): vectors by (model, SHA-256 of the text). */
import "server-only";
import { db } from "@/lib/db/client";
import type { EmbeddingStore } from "@/lib/embeddings/http";

/** Hashes per query, to keep `IN (…)` lists and inserts bounded. */
const PAGE = 1000;

export const embeddingCacheStore: EmbeddingStore = {
  async get(model, hashes) {
    const found = new Map<string, number[]>();
    for (let start = 0; start < hashes.length; start += PAGE) {
      const rows = await db.embeddingCache.findMany({ where: { model, textHash: { in: hashes.slice(start, start + PAGE) } }, select: { textHash: true, vector: true } });
      for (const row of rows) found.set(row.textHash, row.vector);
    }
    return found;
  },
  // Vectors travel as JSON text parsed by PostgreSQL: Prisma 6.19 rounds Float parameters to
  // 16 significant digits, so a cached vector would differ from the endpoint's in the last bit.
  async put(model, entries) {
    for (let start = 0; start < entries.length; start += PAGE) {
      const page = JSON.stringify(entries.slice(start, start + PAGE));
      await db.$executeRaw`
        INSERT INTO "EmbeddingCache" (model, "textHash", vector)
        SELECT ${model}, e.hash, e.vector FROM json_to_recordset(${page}::json) AS e(hash text, vector float8[])
        ON CONFLICT (model, "textHash") DO NOTHING`;
    }
  },
};
