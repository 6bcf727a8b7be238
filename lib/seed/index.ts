/**
 * The demo study (slug "demo"): seeded on the product's first start and by the `seed-demo`
 * CLI command. Demo annotator accounts: ann1@demo.local ("Annotator One") and ann2@demo.local
 * ("Annotator Two"), both with the password "demo-annotator".
 */
import { Prisma, type PrismaClient } from "@/lib/db/client";
import { countStudy, type StudyCounts } from "./counts";
import { DEMO_STUDY } from "./demo";
import { writeDemoStudy } from "./write";

export { DEMO_STUDY } from "./demo";
export { planDemo, TASK_ORDER } from "./plan";
export type { DemoPlan, PlannedAnnotation, PlannedAssignment } from "./plan";
export type { StudyCounts } from "./counts";
export type * from "./types";

export interface SeedDemoResult {
  /** False when the study already existed; nothing was written then. */
  created: boolean;
  studyId: string;
  slug: string;
  counts: StudyCounts;
}

const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

/**
 * Seeds the demo study in one transaction, unless a study with its slug exists (then nothing
 * changes and `created` is false). Safe to run concurrently: the loser of a race sees the
 * winner's study. Returns the study's row counts either way.
 */
export async function seedDemo(client: PrismaClient): Promise<SeedDemoResult> {
  const slug = DEMO_STUDY.slug;
  const existingId = async () => (await client.study.findUnique({ where: { slug }, select: { id: true } }))?.id;
  let created = false;
  let studyId = await existingId();
  if (studyId === undefined) {
    try {
      studyId = await client.$transaction((tx) => writeDemoStudy(tx, DEMO_STUDY, new Date()), { maxWait: 10_000, timeout: 120_000 });
      created = true;
    } catch (error) {
      studyId = isUniqueViolation(error) ? await existingId() : undefined;
      if (studyId === undefined) throw error;
    }
  }
  return { created, studyId, slug, counts: await countStudy(client, studyId) };
}
