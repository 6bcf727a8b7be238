/**
 * The demo study: eight code changes in Python, Java and JavaScript (three of them one pull
 * request), written for this product, with the codebook of the four task types and two
 * annotators part-way through their work.
 */
import type { DemoStudy } from "../types";
import { DEMO_GUIDELINES } from "./guidelines";
import { TOKEN_BUCKET, USER_SERVICE_OPTIONAL } from "./java";
import { LRU_CACHE_TTL } from "./javascript";
import { ORDERS_PAGINATION } from "./pull-request";
import { CSV_EXPORT, RETRY_BACKOFF } from "./python";

export const DEMO_STUDY: DemoStudy = {
  slug: "demo",
  name: "Demo: code review quality",
  description:
    "A small study to try the product: claim verification and review rating (CRScore), grading against the reference review (GradedReviews) and comment filtering (c-CRAB) on eight code changes.",
  guidelines: DEMO_GUIDELINES,
  tasks: ["CLAIM_VERIFICATION", "REVIEW_RATING", "REFERENCE_GRADING", "COMMENT_FILTERING"],
  annotatorsPerItem: 2,
  reliabilitySet: [RETRY_BACKOFF.externalId, USER_SERVICE_OPTIONAL.externalId, LRU_CACHE_TTL.externalId],
  assignmentSeed: 20261122,
  annotators: {
    ann1: { email: "ann1@demo.local", name: "Annotator One" },
    ann2: { email: "ann2@demo.local", name: "Annotator Two" },
  },
  /** Both demo annotators sign in with this password. */
  annotatorPassword: "demo-annotator",
  changes: [RETRY_BACKOFF, CSV_EXPORT, USER_SERVICE_OPTIONAL, TOKEN_BUCKET, LRU_CACHE_TTL],
  pullRequests: [ORDERS_PAGINATION],
};
