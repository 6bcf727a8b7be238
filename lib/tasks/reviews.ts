/** What the three review tasks (rating, grading, filtering) share: the item's reviews in each annotator's own order. */
import { letterLabel, seededShuffle } from "@/lib/annotation/random";
import type { Db, Tx, WorkspaceReview } from "./types";
import { AppError } from "@/lib/errors";

export function anonymise(reviews: { id: string; text: string; system: string; isReference: boolean }[], seed: number, hideSystemNames: boolean): WorkspaceReview[] {
  const sorted = reviews.slice().sort((a, b) => (a.id < b.id ? -1 : 1));
  return seededShuffle(sorted, seed).map((review, index) => ({
    id: review.id,
    label: `Review ${letterLabel(index)}`,
    text: review.text,
    ...(hideSystemNames ? {} : { system: review.system, isReference: review.isReference }),
  }));
}

export const itemReviews = (client: Db | Tx, codeChangeId: string) => client.review.findMany({ where: { codeChangeId }, select: { id: true, text: true, system: true, isReference: true } });

/** The review a save names, if it belongs to the item (404 otherwise: a forged id writes nothing). */
export async function reviewOfItem(tx: Tx, reviewId: string, codeChangeId: string, generatedOnly = false): Promise<{ id: string }> {
  const review = await tx.review.findFirst({ where: { id: reviewId, codeChangeId, ...(generatedOnly ? { isReference: false } : {}) }, select: { id: true } });
  if (!review) throw new AppError("NOT_FOUND", { message: generatedOnly ? "No such generated review in this item." : "No such review in this item." });
  return review;
}

export const nonEmpty = (text: string) => (text === "" ? null : text);
export const flag = (value: boolean) => (value ? "1" : "0");
