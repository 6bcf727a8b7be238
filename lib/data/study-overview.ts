/** Read models for leads: the studies they lead with counts, and one study's items and annotators. */
import "server-only";
import { db } from "@/lib/db/client";
import { leadStudyWhere } from "@/lib/data/study-access";
import type { SessionAccount } from "@/lib/auth/authenticate";

export async function listStudiesWithCounts(account: Pick<SessionAccount, "id" | "role">) {
  const studies = await db.study.findMany({
    where: leadStudyWhere(account),
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      slug: true,
      name: true,
      tasks: true,
      _count: { select: { codeChanges: true, assignments: true, members: true } },
    },
  });
  const ids = studies.map((s) => s.id);
  const [reviews, done] = await Promise.all([
    db.$queryRaw<{ studyId: string; n: bigint }[]>`SELECT c."studyId", count(*) AS n FROM "CandidateReview" r JOIN "CodeChange" c ON c.id = r."codeChangeId" WHERE c."studyId" = ANY(${ids}) GROUP BY c."studyId"`,
    db.assignment.groupBy({ by: ["studyId"], where: { status: "DONE", studyId: { in: ids } }, _count: true }),
  ]);
  return studies.map((study) => ({
    ...study,
    reviews: Number(reviews.find((r) => r.studyId === study.id)?.n ?? 0),
    assignmentsDone: done.find((d) => d.studyId === study.id)?._count ?? 0,
  }));
}

export async function getStudyOverview(account: Pick<SessionAccount, "id" | "role">, slug: string) {
  const study = await db.study.findFirst({
    where: { slug, ...leadStudyWhere(account) },
    include: {
      pullRequests: { select: { id: true, externalId: true, title: true, repository: true } },
      codeChanges: {
        orderBy: { position: "asc" },
        select: {
          id: true,
          externalId: true,
          language: true,
          filePath: true,
          pullRequestId: true,
          _count: { select: { pseudoReferences: true, reviews: true } },
        },
      },
    },
  });
  if (!study) return null;
  const progress = await db.assignment.groupBy({
    by: ["annotatorId", "task", "status"],
    where: { studyId: study.id },
    _count: true,
    _sum: { timeSpentMs: true },
  });
  const accounts = await db.account.findMany({
    where: { id: { in: [...new Set(progress.map((p) => p.annotatorId))] } },
    select: { id: true, name: true, email: true, active: true },
    orderBy: { name: "asc" },
  });
  const annotators = accounts.map((account) => {
    const rows = progress.filter((p) => p.annotatorId === account.id);
    return {
      ...account,
      total: rows.reduce((sum, p) => sum + p._count, 0),
      done: rows.filter((p) => p.status === "DONE").reduce((sum, p) => sum + p._count, 0),
      skipped: rows.filter((p) => p.status === "SKIPPED").reduce((sum, p) => sum + p._count, 0),
      timeSpentMs: rows.reduce((sum, p) => sum + (p._sum.timeSpentMs ?? 0), 0),
    };
  });
  return { study, annotators };
}
