/**
 * Annotators' side of calibration rounds (lib/annotation/rounds.ts, GradedReviews §4.3): round
 * k+1's items open when round k+1 is released, after the lead's review of round k; items outside
 * every round open once the last round is released, or earlier when a lead opens them
 * (Study.outsideRoundsOpenedAt). A held item cannot be opened or saved. The rule is part of the
 * queries (Prisma `where` and the one-statement save's SQL), like the other rules of
 * lib/data/study-access.ts; lib/annotation/waiting.ts says the same rule for one item in words.
 */
import "server-only";
import type { Prisma, PrismaClient } from "@/lib/db/client";
import type { RoundsGate } from "@/lib/annotation/waiting";

type Client = PrismaClient | Prisma.TransactionClient;

/** Code changes the calibration rounds hold (see the file comment). */
export const heldByRounds: Prisma.CodeChangeWhereInput = {
  OR: [
    { itemSetMembers: { some: { itemSet: { round: { releasedAt: null } } } } },
    { itemSetMembers: { none: { itemSet: { round: { isNot: null } } } }, study: { outsideRoundsOpenedAt: null, rounds: { some: { releasedAt: null } } } },
  ],
};

const inRound = (released: string) => `EXISTS (SELECT 1 FROM "ItemSetMember" im JOIN "CalibrationRound" r ON r."itemSetId" = im."itemSetId" WHERE im."codeChangeId" = a."codeChangeId"${released})`;

/** The same rule in SQL, for the assignment `a` of the one-statement save: true when the item is open. */
export const NOT_HELD_BY_ROUNDS_SQL = `NOT ${inRound(` AND r."releasedAt" IS NULL`)}
      AND (${inRound("")}
        OR NOT EXISTS (SELECT 1 FROM "CalibrationRound" r WHERE r."studyId" = a."studyId" AND r."releasedAt" IS NULL)
        OR EXISTS (SELECT 1 FROM "Study" s WHERE s."id" = a."studyId" AND s."outsideRoundsOpenedAt" IS NOT NULL))`;

/** The study's calibration rounds in order, each its code changes in the round's order. */
export async function roundCodeChanges(client: Client, studyId: string): Promise<string[][]> {
  const rounds = await client.calibrationRound.findMany({ where: { studyId }, orderBy: { number: "asc" }, select: { itemSet: { select: { members: { orderBy: { position: "asc" }, select: { codeChangeId: true } } } } } });
  return rounds.map((r) => [...new Set(r.itemSet.members.map((m) => m.codeChangeId))]);
}

/** The state of a study's rounds that the gate reads; null for a study without rounds. */
export async function roundsGate(client: Client, studyId: string): Promise<RoundsGate | null> {
  const [rounds, study] = await Promise.all([
    client.calibrationRound.findMany({ where: { studyId }, orderBy: { number: "asc" }, select: { number: true, releasedAt: true } }),
    client.study.findUniqueOrThrow({ where: { id: studyId }, select: { outsideRoundsOpenedAt: true } }),
  ]);
  if (rounds.length === 0) return null;
  return { last: rounds[rounds.length - 1].number, allReleased: rounds.every((r) => r.releasedAt !== null), outsideOpened: study.outsideRoundsOpenedAt !== null };
}

/** The Prisma select of a code change's calibration rounds, for codeChangeRound. */
export const roundMembershipSelect = {
  itemSetMembers: { where: { itemSet: { round: { isNot: null } } }, select: { itemSet: { select: { round: { select: { number: true, releasedAt: true } } } } } },
} as const satisfies Prisma.CodeChangeSelect;

/**
 * The round an item is in, from its memberships (roundMembershipSelect): the first round not
 * released when it is in one (a change may be in several calibration sets), else its first round.
 */
export function codeChangeRound(members: { itemSet: { round: { number: number; releasedAt: Date | null } | null } }[]): { number: number; released: boolean } | null {
  const rounds = members.flatMap((m) => (m.itemSet.round ? [m.itemSet.round] : [])).sort((a, b) => a.number - b.number);
  const held = rounds.find((r) => r.releasedAt === null);
  const round = held ?? rounds[0];
  return round ? { number: round.number, released: round.releasedAt !== null } : null;
}
