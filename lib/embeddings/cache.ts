/** The EmbeddingCache table as an EmbeddingStore: vectors by (model, SHA-256 of the text). */
import type { PrismaClient } from "@/lib/db/client";
import type { EmbeddingStore } from "./http";

/** Hashes per query, to keep `IN (…)` lists and inserts bounded. */
const PAGE = 1000;

export function prismaEmbeddingStore(db: PrismaClient): EmbeddingStore {
  return {
    async get(model, hashes) {
      const found = new Map<string, number[]>();
      for (let start = 0; start < hashes.length; start += PAGE) {
        const rows = await db.embeddingCache.findMany({ where: { model, textHash: { in: hashes.slice(start, start + PAGE) } }, select: { textHash: true, vector: true } });
        for (const row of rows) found.set(row.textHash, row.vector);
      }
      return found;
    },
    async put(model, entries) {
      for (let start = 0; start < entries.length; start += PAGE) {
        await db.embeddingCache.createMany({
          data: entries.slice(start, start + PAGE).map((e) => ({ model, textHash: e.hash, vector: e.vector })),
          skipDuplicates: true,
        });
      }
    },
  };
}
