/** A small study for the annotation integration tests, written straight through Prisma. */
import type { PrismaClient } from "@/lib/db/client";
import type { TaskType } from "@/lib/generated/prisma/client";
import { unifiedDiff } from "@/lib/diff";

export interface AnnotationFixture {
  studyId: string;
  slug: string;
  accounts: { ann1: string; ann2: string; ann3: string; lead: string };
  changes: { id: string; claims: string[]; implication: string; smell: string; reviews: string[]; reference: string }[];
}

export async function createAnnotationFixture(db: PrismaClient, tag: string, options: { changes?: number; hideSystemNames?: boolean; stageOrder?: boolean } = {}): Promise<AnnotationFixture> {
  const account = (name: string) => db.account.create({ data: { email: `${name}-${tag}@test.local`, name: `${name} ${tag}`, role: "ANNOTATOR" } });
  // The "lead" has the annotator role on purpose: the integration database is shared, and other
  // tests expect no lead account; the data layer takes the deciding account as given.
  const [ann1, ann2, ann3, lead] = await Promise.all([account("ann1"), account("ann2"), account("ann3"), account("lead")]);
  const tasks: TaskType[] = ["CLAIM_VERIFICATION", "REVIEW_RATING", "REFERENCE_GRADING", "COMMENT_FILTERING"];
  const study = await db.study.create({
    data: { slug: `study-${tag}`, name: `Study ${tag}`, ownerId: lead.id, tasks, annotatorsPerItem: 2, reliabilitySetSize: 1, hideSystemNames: options.hideSystemNames ?? true, assignmentSeed: 11, stageOrder: options.stageOrder ?? false },
  });
  const changes: AnnotationFixture["changes"] = [];
  for (let n = 0; n < (options.changes ?? 3); n++) {
    const oldFile = "def f(x):\n    return x\n";
    const newFile = `def f(x):\n    return x + ${n}\n`;
    const change = await db.codeChange.create({
      data: { studyId: study.id, externalId: `cc-${n}`, filePath: `f${n}.py`, language: "python", diff: unifiedDiff(oldFile, newFile, { path: `f${n}.py` }), oldFile, newFile, position: n },
    });
    const ref = (externalId: string, kind: "CLAIM" | "IMPLICATION" | "SMELL", position: number) =>
      db.pseudoReference.create({ data: { codeChangeId: change.id, externalId, kind, text: `${kind.toLowerCase()} ${externalId} of ${n}`, source: kind === "SMELL" ? "pylint" : "model", position } });
    const claims = [];
    for (let i = 0; i < 3; i++) claims.push((await ref(`claim-${i}`, "CLAIM", i)).id);
    const implication = (await ref("impl", "IMPLICATION", 3)).id;
    const smell = (await ref("smell", "SMELL", 4)).id;
    const reviews = [];
    for (let i = 0; i < 7; i++) {
      reviews.push((await db.review.create({ data: { codeChangeId: change.id, externalId: `r${i}`, system: `system-${i}`, text: `review ${i} of change ${n}`, position: i } })).id);
    }
    const reference = (await db.review.create({ data: { codeChangeId: change.id, externalId: "human", system: "human", text: `the reference review of ${n}`, isReference: true, position: 7 } })).id;
    changes.push({ id: change.id, claims: [...claims, implication], implication, smell, reviews, reference });
  }
  return { studyId: study.id, slug: study.slug, accounts: { ann1: ann1.id, ann2: ann2.id, ann3: ann3.id, lead: lead.id }, changes };
}

/** The fixture's lead (the study's owner) as the data layer takes it. */
export const asLead = (fx: AnnotationFixture) => ({ id: fx.accounts.lead, role: "LEAD" as const });

/** A session account as the data layer takes it. */
export const asAccount = (id: string) => ({ id, email: `${id}@test.local`, name: id, role: "ANNOTATOR" as const, sessionVersion: 0 });

/** Removes the fixture's study and accounts (history rows stay: the log is append-only). */
export async function removeAnnotationFixture(db: PrismaClient, fx: AnnotationFixture): Promise<void> {
  await db.study.delete({ where: { id: fx.studyId } });
  await db.account.deleteMany({ where: { id: { in: Object.values(fx.accounts) } } });
}
