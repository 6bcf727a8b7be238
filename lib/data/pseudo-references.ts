/** A study's pseudo-reference runs (lib/pseudo-refs): their state, the code changes they cover, what they generated and stored; and the generated smells' tables. */
import "server-only";
import { db, type PrismaClient } from "@/lib/db/client";
import type { CodeChange, Prisma, PseudoReferenceRun } from "@/lib/generated/prisma/client";
import type { ChangeToGenerate, Generated } from "@/lib/pseudo-refs/types";
import { type ItemDetail, summarizeLlm } from "@/lib/pseudo-refs/llm-summary";
import { type SmellTables, smellTables } from "@/lib/pseudo-refs/smell-tables";

/** A study's runs, newest first, with what their changes gave (the page's progress table): pseudo-references stored and, for claims, the LLM's usage. */
export async function listPseudoReferenceRuns(studyId: string, client: PrismaClient = db) {
  const runs = await client.pseudoReferenceRun.findMany({ where: { studyId }, orderBy: { createdAt: "desc" } });
  const items = await client.pseudoReferenceRunItem.findMany({ where: { runId: { in: runs.map((r) => r.id) } }, select: { runId: true, created: true, detail: true } });
  return runs.map((run) => {
    const mine = items.filter((i) => i.runId === run.id);
    return { ...run, created: mine.reduce((n, i) => n + i.created, 0), llm: run.source === "claims" ? summarizeLlm(mine.map((i) => i.detail as ItemDetail)) : null };
  });
}

/** CRScore Tables 14 and 6 over the study's SMELL pseudo-references and its latest smells run. */
export async function studySmellTables(studyId: string, client: PrismaClient = db): Promise<SmellTables> {
  const [smells, run] = await Promise.all([
    client.pseudoReference.findMany({ where: { kind: "SMELL", codeChange: { studyId } }, select: { metadata: true, codeChange: { select: { language: true, filePath: true } } } }),
    client.pseudoReferenceRun.findFirst({ where: { studyId, source: "smells" }, orderBy: { createdAt: "desc" }, select: { items: { select: { detail: true } } } }),
  ]);
  return smellTables(smells, run?.items ?? []);
}

/** The study's code changes in study order, with what a source plans on. */
export function studyCodeChanges(studyId: string): Promise<Pick<CodeChange, "id" | "language" | "filePath">[]> {
  return db.codeChange.findMany({ where: { studyId }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true, language: true, filePath: true } });
}

/** The latest run of this computation (source and signature), which asking again resumes. */
export function latestPseudoReferenceRun(studyId: string, source: string, signature: string): Promise<PseudoReferenceRun | null> {
  return db.pseudoReferenceRun.findFirst({ where: { studyId, source, signature }, orderBy: { createdAt: "desc" } });
}

type RunState = Pick<Prisma.PseudoReferenceRunUncheckedCreateInput, "total" | "done" | "status" | "error" | "finishedAt"> & { params: object };

export function createPseudoReferenceRun(data: RunState & { studyId: string; source: string; signature: string; createdById?: string }): Promise<PseudoReferenceRun> {
  return db.pseudoReferenceRun.create({ data: { ...data, params: data.params as Prisma.InputJsonValue } });
}

/** A resumed run's new state. */
export function updatePseudoReferenceRun(runId: string, state: RunState): Promise<PseudoReferenceRun> {
  return db.pseudoReferenceRun.update({ where: { id: runId }, data: { ...state, params: state.params as Prisma.InputJsonValue } });
}

export function findPseudoReferenceRun(runId: string): Promise<PseudoReferenceRun | null> {
  return db.pseudoReferenceRun.findUnique({ where: { id: runId } });
}

export function requirePseudoReferenceRun(runId: string): Promise<PseudoReferenceRun> {
  return db.pseudoReferenceRun.findUniqueOrThrow({ where: { id: runId } });
}

/** The code changes of the run (of `codeChangeIds`, when given) that have their item: done. */
export async function doneCodeChangeIds(runId: string, codeChangeIds?: readonly string[]): Promise<Set<string>> {
  const items = await db.pseudoReferenceRunItem.findMany({ where: { runId, ...(codeChangeIds ? { codeChangeId: { in: [...codeChangeIds] } } : {}) }, select: { codeChangeId: true } });
  return new Set(items.map((item) => item.codeChangeId));
}

/** What each of the run's done changes stored with its item (a claims run: the LLM's usage and cost). */
export async function runItemDetails(runId: string): Promise<unknown[]> {
  return (await db.pseudoReferenceRunItem.findMany({ where: { runId }, select: { detail: true } })).map((item) => item.detail);
}

const CHANGE_FIELDS = { id: true, studyId: true, externalId: true, filePath: true, language: true, diff: true, oldFile: true, newFile: true } as const;

/** The code changes a source generates from (those of `ids` that exist). */
export function codeChangesToGenerate(ids: readonly string[]): Promise<ChangeToGenerate[]> {
  return db.codeChange.findMany({ where: { id: { in: [...ids] } }, select: CHANGE_FIELDS });
}

/** A queued run's first job starts it. */
export async function markPseudoReferenceRunStarted(runId: string): Promise<void> {
  await db.pseudoReferenceRun.updateMany({ where: { id: runId, status: "QUEUED" }, data: { status: "RUNNING", startedAt: new Date() } });
}

/** Fails the run, naming the code change whose job failed (its external id) and why. */
export async function failPseudoReferenceRun(runId: string, codeChangeId: string, message: string): Promise<void> {
  const change = await db.codeChange.findUnique({ where: { id: codeChangeId }, select: { externalId: true } });
  await db.pseudoReferenceRun.update({ where: { id: runId }, data: { status: "FAILED", error: `change ${change?.externalId ?? codeChangeId}: ${message}`, finishedAt: new Date() } });
}

/** Stores a change's references with its item and the run's progress in one transaction; returns how many were stored (0 when another job stored the change first). */
export function storeGenerated(run: Pick<PseudoReferenceRun, "id" | "signature">, change: Pick<CodeChange, "id">, generated: Generated): Promise<number> {
  return db.$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`INSERT INTO "PseudoReferenceRunItem" ("runId", "codeChangeId", created, detail) VALUES (${run.id}, ${change.id}, 0, ${JSON.stringify(generated.detail)}::jsonb) ON CONFLICT DO NOTHING`;
    if (inserted === 0) return 0;
    const last = await tx.pseudoReference.aggregate({ where: { codeChangeId: change.id }, _max: { position: true } });
    const start = (last._max.position ?? -1) + 1;
    const stored = await tx.pseudoReference.createMany({
      data: generated.references.map((r, i) => ({ codeChangeId: change.id, externalId: r.externalId, kind: r.kind, text: r.text, source: r.source, position: start + i, metadata: { ...r.metadata, runId: run.id, signature: run.signature } as Prisma.InputJsonValue })),
      skipDuplicates: true,
    });
    await tx.pseudoReferenceRunItem.update({ where: { runId_codeChangeId: { runId: run.id, codeChangeId: change.id } }, data: { created: stored.count } });
    await tx.$executeRaw`
      UPDATE "PseudoReferenceRun" SET done = LEAST(done + 1, total),
        status = CASE WHEN done + 1 >= total THEN 'DONE'::"JobStatus" ELSE 'RUNNING'::"JobStatus" END,
        "finishedAt" = CASE WHEN done + 1 >= total THEN now() ELSE NULL END
      WHERE id = ${run.id} AND status <> 'FAILED'`;
    return stored.count;
  });
}
