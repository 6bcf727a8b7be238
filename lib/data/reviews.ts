/** A code change's reviews as the review tasks (rating, grading, filtering) read them. */
import "server-only";
import { AppError } from "@/lib/errors";
import type { Db, Tx } from "@/lib/data/annotation-rows";

export const itemReviews = (client: Db | Tx, codeChangeId: string) => client.review.findMany({ where: { codeChangeId }, select: { id: true, text: true, system: true, isReference: true } });

/** The review a save names, if it belongs to the item (404 otherwise: a forged id writes nothing). */
export async function reviewOfItem(tx: Tx, reviewId: string, codeChangeId: string): Promise<{ id: string }> {
  const review = await tx.review.findFirst({ where: { id: reviewId, codeChangeId }, select: { id: true } });
  if (!review) throw new AppError("NOT_FOUND", { message: "No such review in this item." });
  return review;
}
