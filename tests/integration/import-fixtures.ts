/** Helpers of the import/export integration tests: files read in place, row counts, exports as text. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { PrismaClient } from "@/lib/db/client";
import type { ExportFormat } from "@/lib/export";
import { streamExport } from "@/lib/data/exports";
import type { ImportFile, ImportResult, ImportSummary } from "@/lib/import";
import { formatImportErrors } from "@/lib/import";
import { sharedPath } from "../shared-data";

export function fileAt(file: string): ImportFile {
  return { name: path.basename(file), content: readFileSync(file) };
}

/** A small valid jsonl import: per id one code change with a claim, a reference and a generated review. */
export function jsonlFile(name: string, ids: readonly string[]): ImportFile {
  const line = (id: string) =>
    JSON.stringify({
      id,
      language: "python",
      diff: "@@ -1 +1 @@\n-x = 1\n+x = 2\n",
      oldFile: "x = 1\n",
      newFile: "x = 2\n",
      pseudoReferences: [{ id: "c1", text: "The change sets x to 2.", kind: "CLAIM", source: "gpt-4o" }],
      reviews: [
        { id: "human", system: "human", text: "Why 2?", isReference: true },
        { id: "m1", system: "llama3", text: `Review of ${id}.` },
      ],
    });
  return { name, content: Buffer.from(ids.map(line).join("\n") + "\n") };
}

export const sharedFile = (...parts: string[]): ImportFile => fileAt(sharedPath(...parts));

export const CRSCORE = ["data", "crscore"] as const;
export const GRADEDREVIEWS_SAMPLE = ["data", "gradedreviews", "gradedreviews-sample-300.xlsx"] as const;

/** The CRScore context files (`test{index}_{old,new}.py`) by name. */
export function crscoreContext(): Map<string, string> {
  const dir = sharedPath(...CRSCORE, "phase1", "context_files");
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(path.join(dir, name), "utf8")]));
}

/** The summary of an import that must have succeeded (its errors shown otherwise). */
export function imported(result: ImportResult): ImportSummary {
  if (result.status === "refused") throw new Error(`import refused:\n${formatImportErrors(result.errors, result.totalErrors)}`);
  return result.summary;
}

/** Rows of every table an import may write. */
export async function countRows(client: PrismaClient): Promise<Record<string, number>> {
  const counts = await Promise.all([
    client.account.count(),
    client.study.count(),
    client.studyMember.count(),
    client.pullRequest.count(),
    client.codeChange.count(),
    client.pseudoReference.count(),
    client.review.count(),
    client.claimJudgement.count(),
    client.reviewRating.count(),
    client.reviewClaimLink.count(),
    client.referenceGrade.count(),
    client.commentFilteringLabel.count(),
    client.annotationHistory.count(),
    client.importRun.count(),
  ]);
  const names = ["account", "study", "studyMember", "pullRequest", "codeChange", "pseudoReference", "review", "claimJudgement", "reviewRating", "reviewClaimLink", "referenceGrade", "commentFilteringLabel", "annotationHistory", "importRun"];
  return Object.fromEntries(names.map((n, i) => [n, counts[i]]));
}

export async function exportBytes(client: PrismaClient, studyId: string, format: ExportFormat, annotator?: string, includeGold?: boolean): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of streamExport({ studyId, format, annotator, includeGold }, client)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

export const exportText = async (client: PrismaClient, studyId: string, format: ExportFormat, options: { includeGold?: boolean } = {}): Promise<string> =>
  (await exportBytes(client, studyId, format, undefined, options.includeGold)).toString("utf8");
