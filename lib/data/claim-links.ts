/** The stage-2 claim links CRScore Table 4 scores (lib/analysis/claim-links.ts). */
import "server-only";
import { db, type PrismaClient } from "@/lib/db/client";
import type { LinkedRating } from "@/lib/analysis/claim-links";

/** Every stage-2 rating of a candidate review of the study (the human reference and reviews without text left out), with its links and the claims, implications and added claims of its change. */
export function linkedRatings(studyId: string, client: PrismaClient = db): Promise<LinkedRating[]> {
  return client.reviewRating.findMany({
    where: { review: { isReference: false, textMissing: false, codeChange: { studyId } } },
    select: {
      links: { select: { pseudoReferenceId: true } },
      review: { select: { text: true, codeChange: { select: { pseudoReferences: { where: { kind: { not: "SMELL" } }, select: { id: true, text: true } } } } } },
    },
  });
}
