/** Reads of a study's pseudo-reference runs and generated smells, for the pages and the CLI (lib/pseudo-refs generates them). */
import "server-only";
import { db, type PrismaClient } from "@/lib/db/client";
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
