/**
 * Claim verification's queries (lib/tasks/claim-verification.ts): the item's claims and smells
 * with the annotator's own judgements and added claims, the save of an added or corrected claim
 * (a pseudo-reference of kind ANNOTATOR_ADDED), and an item's judgements for adjudication.
 */
import "server-only";
import type { ClaimCode, ClaimErrorType } from "@/lib/generated/prisma/client";
import { NEW_CLAIM_PREFIX, type AddedClaimValue, type ClaimJudgementValue, type SaveRequest } from "@/lib/annotation/values";
import type { SaveContext, SaveTarget, TaskQueries } from "@/lib/data/annotation-rows";
import { AppError, InvariantError } from "@/lib/errors";

export const referenceSelect = { id: true, kind: true, text: true, source: true, position: true, addedById: true, correctsId: true, version: true } as const;

const claimValue = (j: { code: ClaimCode | null; necessary: boolean | null; errorType: ClaimErrorType | null; note: string }): ClaimJudgementValue => ({
  code: j.code,
  necessary: j.necessary,
  errorType: j.errorType,
  note: j.note,
});

async function addedClaimTarget({ tx, annotatorId, codeChangeId }: SaveContext, targetId: string, value: AddedClaimValue): Promise<SaveTarget<unknown>> {
  if (value.correctsId) {
    const corrected = await tx.pseudoReference.findFirst({ where: { id: value.correctsId, codeChangeId, kind: { in: ["CLAIM", "IMPLICATION"] } }, select: { id: true } });
    if (!corrected) throw new AppError("INVALID_INPUT", { message: "The corrected claim is not a claim of this item." });
  }
  const creating = targetId.startsWith(NEW_CLAIM_PREFIX);
  // The client key is scoped by the annotator, so one annotator can never reach another's claim through it.
  const externalId = creating ? `added:${annotatorId}:${targetId.slice(NEW_CLAIM_PREFIX.length)}` : null;
  const row = await tx.pseudoReference.findFirst({
    where: creating ? { codeChangeId, externalId: externalId! } : { id: targetId, codeChangeId },
    select: { id: true, kind: true, addedById: true, text: true, correctsId: true, version: true },
  });
  if (row && (row.kind !== "ANNOTATOR_ADDED" || row.addedById !== annotatorId)) throw new AppError("NOT_FOUND", { message: "No such claim of yours in this item." });
  if (!row && !creating) throw new AppError("NOT_FOUND", { message: "No such claim of yours in this item." });
  return {
    current: row && { id: row.id, version: row.version, value: { text: row.text, correctsId: row.correctsId } },
    create: async (v) => {
      const { text, correctsId } = v as AddedClaimValue;
      const last = await tx.pseudoReference.aggregate({ where: { codeChangeId }, _max: { position: true } });
      const created = await tx.pseudoReference.create({
        data: { codeChangeId, externalId: externalId!, text, kind: "ANNOTATOR_ADDED", source: "annotator", position: (last._max.position ?? 0) + 1, addedById: annotatorId, correctsId },
      });
      return created.id;
    },
    update: async (id, base, v) => {
      const { text, correctsId } = v as AddedClaimValue;
      return (await tx.pseudoReference.updateMany({ where: { id, addedById: annotatorId, version: base }, data: { text, correctsId, version: { increment: 1 } } })).count === 1;
    },
    remove: async (id, base) => {
      if (await tx.consolidationDecision.findUnique({ where: { pseudoReferenceId: id } })) throw new AppError("CONFLICT", { message: "A lead has already consolidated this claim; it can no longer be removed." });
      return (await tx.pseudoReference.deleteMany({ where: { id, addedById: annotatorId, version: base } })).count === 1;
    },
  };
}

export const claimJudgementQueries: TaskQueries = {
  async readWorkspace({ client, accountId, codeChangeId, study }) {
    const [references, judgements] = await Promise.all([
      client.pseudoReference.findMany({ where: { codeChangeId, OR: [{ kind: { not: "ANNOTATOR_ADDED" } }, { addedById: accountId }] }, orderBy: [{ position: "asc" }, { id: "asc" }], select: referenceSelect }),
      client.claimJudgement.findMany({ where: { annotatorId: accountId, pseudoReference: { codeChangeId } } }),
    ]);
    return {
      claimVerification: {
        // "hide system names" also hides the model that generated a claim (its source)
        references: references.filter((r) => r.kind === "CLAIM" || r.kind === "IMPLICATION").map((r) => ({ id: r.id, kind: r.kind as "CLAIM" | "IMPLICATION", text: r.text, source: study.hideSystemNames ? "" : r.source })),
        smells: references.filter((r) => r.kind === "SMELL").map((r) => ({ id: r.id, text: r.text, source: r.source })),
        judgements: Object.fromEntries(judgements.map((j) => [j.pseudoReferenceId, { id: j.id, version: j.version, value: claimValue(j) }])),
        added: references.filter((r) => r.kind === "ANNOTATOR_ADDED").map((r) => ({ id: r.id, version: r.version, value: { text: r.text, correctsId: r.correctsId } })),
        askNecessity: !study.stageOrder,
      },
    };
  },

  saveTarget(ctx, request: SaveRequest) {
    if (request.kind !== "addedClaim") throw new InvariantError(`claim verification saves ${request.kind} as a row`);
    return addedClaimTarget(ctx, request.targetId, request.value);
  },

  async itemAnnotations(client, itemId) {
    const rows = await client.claimJudgement.findMany({ where: { pseudoReferenceId: itemId }, orderBy: { createdAt: "asc" }, include: { annotator: { select: { id: true, name: true } } } });
    return rows.map((j) => ({
      annotatorId: j.annotatorId,
      annotator: j.annotator.name,
      values: { code: j.code },
      note: j.note,
      details: [j.necessary === null ? null : j.necessary ? "necessary" : "not necessary", j.errorType && `error type ${j.errorType.toLowerCase()}`].filter((d): d is string => d !== null),
    }));
  },
};
