/** The texts a metric needs for each review: its own, the change's human reference and pseudo-references. */
import { db, type PrismaClient } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";

/** Pseudo-references generated without humans (CRScore §3.1). */
const AUTOMATIC_KINDS = ["CLAIM", "IMPLICATION", "SMELL"] as const;

export interface ReviewToScore {
  id: string;
  text: string;
  isReference: boolean;
  /** The change's human reference review (the first by position), null when it has none. */
  reference: string | null;
  /** Non-empty automatic pseudo-references of the change (claims, implications, smells), by position. */
  pseudoReferences: string[];
  /** The code change for the LLM judges: its diff, else the new file (GradedReviews imports have no diff); null when both are empty. */
  codeChange: string | null;
  language: string;
}

/** Loads the reviews matching `where` (e.g. one chunk's ids, or a whole study) with their change's texts. */
export async function loadReviewsToScore(where: Prisma.CandidateReviewWhereInput, client: PrismaClient = db): Promise<ReviewToScore[]> {
  const reviews = await client.candidateReview.findMany({ where, select: { id: true, text: true, isReference: true, codeChangeId: true } });
  const changeIds = [...new Set(reviews.map((r) => r.codeChangeId))];
  const [changes, references, pseudoReferences] = await Promise.all([
    client.codeChange.findMany({ where: { id: { in: changeIds } }, select: { id: true, diff: true, newFile: true, language: true } }),
    client.candidateReview.findMany({ where: { codeChangeId: { in: changeIds }, isReference: true }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { codeChangeId: true, text: true } }),
    client.pseudoReference.findMany({ where: { codeChangeId: { in: changeIds }, kind: { in: [...AUTOMATIC_KINDS] } }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { codeChangeId: true, text: true } }),
  ]);
  const referenceOf = new Map<string, string>();
  for (const r of references) if (!referenceOf.has(r.codeChangeId)) referenceOf.set(r.codeChangeId, r.text);
  const pseudoOf = new Map<string, string[]>();
  for (const p of pseudoReferences) {
    if (p.text.trim() === "") continue;
    pseudoOf.set(p.codeChangeId, [...(pseudoOf.get(p.codeChangeId) ?? []), p.text]);
  }
  const changeOf = new Map(changes.map((c) => [c.id, { codeChange: c.diff.trim() !== "" ? c.diff : c.newFile.trim() !== "" ? c.newFile : null, language: c.language }]));
  return reviews.map((r) => ({
    id: r.id,
    text: r.text,
    isReference: r.isReference,
    reference: referenceOf.get(r.codeChangeId) ?? null,
    pseudoReferences: pseudoOf.get(r.codeChangeId) ?? [],
    ...(changeOf.get(r.codeChangeId) ?? { codeChange: null, language: "" }),
  }));
}

/** Every review and pseudo-reference text of a study: the corpus the offline TF-IDF embedder is fitted on. */
export async function studyCorpus(studyId: string, client: PrismaClient = db): Promise<string[]> {
  const [reviews, pseudoReferences] = await Promise.all([
    client.candidateReview.findMany({ where: { codeChange: { studyId } }, select: { text: true } }),
    client.pseudoReference.findMany({ where: { codeChange: { studyId } }, select: { text: true } }),
  ]);
  return [...reviews, ...pseudoReferences].map((r) => r.text);
}

/** The study's reviews in study order (change position, review position), with the reference flag. */
export async function studyReviewOrder(studyId: string, client: PrismaClient = db): Promise<{ id: string; isReference: boolean }[]> {
  return client.candidateReview.findMany({
    where: { codeChange: { studyId } },
    orderBy: [{ codeChange: { position: "asc" } }, { codeChange: { id: "asc" } }, { position: "asc" }, { id: "asc" }],
    select: { id: true, isReference: true },
  });
}
