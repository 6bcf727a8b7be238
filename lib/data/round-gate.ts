/**
 * Annotators' side of calibration rounds (lib/annotation/rounds.ts): an item in a round that is
 * not released yet cannot be opened or saved. The rule is part of the queries (Prisma `where`
 * and the one-statement save's SQL), like the other rules of lib/data/study-access.ts.
 */
import type { Prisma, PrismaClient } from "@/lib/db/client";

/** Code changes that are in a calibration round not released yet. */
export const inUnreleasedRound: Prisma.CodeChangeWhereInput = { itemSetMembers: { some: { itemSet: { round: { releasedAt: null } } } } };

/** The same rule in SQL, for the assignment `a` of the one-statement save. */
export const NOT_IN_UNRELEASED_ROUND_SQL = `NOT EXISTS (SELECT 1 FROM "ItemSetMember" im JOIN "CalibrationRound" r ON r."itemSetId" = im."itemSetId" WHERE im."codeChangeId" = a."codeChangeId" AND r."releasedAt" IS NULL)`;

/** The study's calibration rounds in order, each its code changes in the round's order. */
export async function roundChanges(client: PrismaClient | Prisma.TransactionClient, studyId: string): Promise<string[][]> {
  const rounds = await client.calibrationRound.findMany({ where: { studyId }, orderBy: { number: "asc" }, select: { itemSet: { select: { members: { orderBy: { position: "asc" }, select: { codeChangeId: true } } } } } });
  return rounds.map((r) => [...new Set(r.itemSet.members.map((m) => m.codeChangeId))]);
}
