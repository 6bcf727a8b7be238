/** The rows an import counts, in the product's words (the import result page; the CLI's JSON keeps the keys). */
import type { ImportCounts } from "./index";

export const IMPORT_COUNT_LABELS: Record<keyof ImportCounts, string> = {
  pullRequests: "pull requests",
  codeChanges: "code changes",
  pseudoReferences: "pseudo-references (claims and smells)",
  reviews: "reviews",
  claimJudgements: "claim judgements",
  reviewRatings: "review ratings",
  referenceGrades: "grades against the reference",
  commentFilteringLabels: "comment filter labels",
  reviewComments: "review comments",
  reviewClaimLinks: "links between reviews and claims",
  annotationHistory: "history entries",
};
