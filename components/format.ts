/** Display helpers shared by pages. */
export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60000);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Mean active time per finished item, in seconds (too-fast answers show here first). */
export function secondsPerItem(ms: number, items: number): string {
  return items > 0 ? `${(ms / 1000 / items).toFixed(1)} s` : "–";
}

export const TASK_LABELS = {
  CLAIM_VERIFICATION: "Claim verification",
  REVIEW_RATING: "Review rating",
  REFERENCE_GRADING: "Reference-based grading",
  COMMENT_FILTERING: "Comment filtering",
} as const;
