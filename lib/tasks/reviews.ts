/** What the three review tasks (rating, grading, filtering) share: the item's reviews in each annotator's own order. */
import { letterLabel, seededShuffle } from "@/lib/annotation/random";
import type { WorkspaceReview } from "./types";

export function anonymise(reviews: { id: string; text: string; system: string; isReference: boolean }[], seed: number, hideSystemNames: boolean): WorkspaceReview[] {
  const sorted = reviews.slice().sort((a, b) => (a.id < b.id ? -1 : 1));
  return seededShuffle(sorted, seed).map((review, index) => ({
    id: review.id,
    label: `Review ${letterLabel(index)}`,
    text: review.text,
    ...(hideSystemNames ? {} : { system: review.system, isReference: review.isReference }),
  }));
}

export const nonEmpty = (text: string) => (text === "" ? null : text);
export const flag = (value: boolean) => (value ? "1" : "0");
