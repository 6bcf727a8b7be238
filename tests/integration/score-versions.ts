/** Stored scores' row versions, for tests that check a run kept rows instead of writing them again. */
import { Prisma, type PrismaClient } from "@/lib/db/client";

/**
 * Each MetricScore row matching `where` (on alias s) as its key and row version (xmin, which a
 * rewrite or a delete and insert changes): a row with the same entry afterwards was kept.
 */
export async function scoreVersions(db: PrismaClient, where: Prisma.Sql): Promise<string[]> {
  const rows = await db.$queryRaw<{ version: string }[]>(
    Prisma.sql`SELECT s."candidateReviewId" || '/' || s.metric || '/' || s."paramsKey" || '@' || s.xmin::text AS version FROM "MetricScore" s WHERE ${where}`,
  );
  return rows.map((r) => r.version);
}
