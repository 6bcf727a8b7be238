/**
 * Storing a system's test outcomes for a pull request (docs/test-results.md): the JUnit XML files
 * are read and checked first (lib/import/junit.ts, lib/import/test-results.ts); then, in one
 * transaction, the system's earlier outcomes for the pull request are replaced and the run is
 * recorded (an ImportRun of format `junit`, with its files and counts).
 */
import "server-only";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { db, type Prisma, type PrismaClient } from "@/lib/db/client";
import { COMMAND_LINE, requireLedStudy } from "@/lib/data/study-access";
import { HUMAN_SYSTEM } from "@/lib/analysis/comment-systems";
import type { TestStatus } from "@/lib/generated/prisma/enums";
import { ErrorCollector, inFileOrder, type ImportError } from "@/lib/import/errors";
import { readText, type ImportFile } from "@/lib/import/file";
import { parseJunitXml, type JunitSkipped } from "@/lib/import/junit";
import { testOutcomesOf } from "@/lib/import/test-results";

export interface TestResultsRequest {
  study: string;
  system: string;
  /** The pull request's id in the study, or its URL. */
  pullRequest: string;
  files: readonly ImportFile[];
}

export interface TestResultsSummary {
  study: string;
  pullRequest: string;
  system: string;
  files: string[];
  tests: number;
  byStatus: Record<TestStatus, number>;
  /** Tests tied to a human comment. */
  linked: number;
  /** The system's outcomes for the pull request this import replaced. */
  replaced: number;
  skipped: JunitSkipped[];
  warnings: string[];
  importRunId: string;
}

export type TestResultsResult = { status: "imported"; summary: TestResultsSummary } | { status: "refused"; errors: ImportError[]; totalErrors: number };

const refused = (field: string, message: string): TestResultsResult => ({ status: "refused", errors: [{ file: "(import)", field, message }], totalErrors: 1 });

/** Imports one system's JUnit XML results for one pull request of a study the account leads; refused (nothing written) on any error. */
export async function importTestResults(account: Pick<SessionAccount, "id" | "role">, request: TestResultsRequest, client: PrismaClient = db): Promise<TestResultsResult> {
  const system = request.system.trim();
  if (system === "") return refused("system", "name the system whose review guided the revision");
  if (system === HUMAN_SYSTEM) return refused("system", `the human reviewers ("${HUMAN_SYSTEM}") pass every test by construction; their outcomes are not imported`);
  if (request.files.length === 0) return refused("files", "no files to import");
  const study = await requireLedStudy(account, request.study, client);
  const pullRequest = await client.pullRequest.findFirst({
    where: { studyId: study.id, OR: [{ externalId: request.pullRequest }, ...(request.pullRequest.includes("://") ? [{ url: request.pullRequest }] : [])] },
    select: { id: true, externalId: true, comments: { select: { id: true, externalId: true, testPath: true } } },
  });
  if (!pullRequest) return refused("pr", `"${request.pullRequest}" is not a pull request of study ${study.slug} (neither its id nor its URL)`);

  const errors = new ErrorCollector();
  const reports = request.files.flatMap((file) => {
    const text = readText(file, errors);
    return text === null ? [] : [parseJunitXml(text, file.name, errors)];
  });
  const { outcomes, warnings } = testOutcomesOf(reports, pullRequest.comments, errors);
  const fileNames = request.files.map((f) => f.name);
  if (!errors.empty) return { status: "refused", errors: inFileOrder(errors.errors, fileNames), totalErrors: errors.total };

  return client.$transaction(async (tx) => {
    const run = await tx.importRun.create({ data: { studyId: study.id, format: "junit", files: fileNames, createdById: account === COMMAND_LINE ? null : account.id } });
    const { count: replaced } = await tx.testOutcome.deleteMany({ where: { pullRequestId: pullRequest.id, system } });
    await tx.testOutcome.createMany({
      data: outcomes.map((o) => ({
        pullRequestId: pullRequest.id,
        system,
        testId: o.testId,
        status: o.status,
        durationSeconds: o.durationSeconds,
        message: o.message,
        reviewCommentId: o.reviewCommentId,
        importRunId: run.id,
        importedFile: o.at.file,
        importedLine: o.at.line ?? null,
      })),
    });
    const byStatus: Record<TestStatus, number> = { PASSED: 0, FAILED: 0, ERROR: 0, SKIPPED: 0 };
    for (const o of outcomes) byStatus[o.status]++;
    const summary: TestResultsSummary = {
      study: study.slug,
      pullRequest: pullRequest.externalId,
      system,
      files: fileNames,
      tests: outcomes.length,
      byStatus,
      linked: outcomes.filter((o) => o.reviewCommentId !== null).length,
      replaced,
      skipped: reports.flatMap((r) => r.skipped),
      warnings,
      importRunId: run.id,
    };
    await tx.importRun.update({ where: { id: run.id }, data: { summary: JSON.parse(JSON.stringify(summary)) as Prisma.InputJsonObject } });
    return { status: "imported" as const, summary };
  });
}
