/** A study's review ids, to select its MetricScore rows (MetricScore has no Prisma relation to its review). */
import type { PrismaClient } from "@/lib/db/client";

export async function studyReviewIds(db: PrismaClient, studyId: string): Promise<{ in: string[] }> {
  const reviews = await db.review.findMany({ where: { codeChange: { studyId } }, select: { id: true } });
  return { in: reviews.map((r) => r.id) };
}
