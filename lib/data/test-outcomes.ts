/**
 * Storing systems' test outcomes for pull requests (docs/test-results.md): the files (JUnit XML,
 * or the outcomes JSONL) are read and checked first (lib/import/junit.ts,
 * lib/import/test-results.ts); then, in one transaction, each system's earlier outcomes for each
 * pull request the files give are replaced, and the run is recorded (an ImportRun of format
 * `test-results`, with its files and counts).
 */
import "server-only";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { db, type Prisma, type PrismaClient } from "@/lib/db/client";
import { COMMAND_LINE, requireLedStudy } from "@/lib/data/study-access";
import { HUMAN_SYSTEM } from "@/lib/analysis/comment-systems";
import type { TestStatus } from "@/lib/generated/prisma/enums";
import { ErrorCollector, inFileOrder } from "@/lib/import/errors";
import { readText, type ImportFile } from "@/lib/import/file";
import { parseJunitXml, type JunitSkipped } from "@/lib/import/junit";
import { linkOutcomes, outcomesOfJunit, parseOutcomesJsonl, type ReadOutcome, type TestOutcomeInput, type TestResultsResult, type TestResultsSummary } from "@/lib/import/test-results";

export interface TestResultsRequest {
  study: string;
  /** The system of outcomes whose file does not name one (every JUnit file). */
  system?: string;
  /** The pull request (its id in the study, or its URL) of outcomes whose file does not name one. */
  pullRequest?: string;
  files: readonly ImportFile[];
}

/** A JSON Lines file by its name, or by its first character. */
const isJsonl = (file: ImportFile, text: string) => /\.(jsonl|ndjson)$/i.test(file.name) || text.trimStart().startsWith("{");

/** Imports test outcomes into a study the account leads; refused (nothing written) on any error. */
export async function importTestResults(account: Pick<SessionAccount, "id" | "role">, request: TestResultsRequest, client: PrismaClient = db): Promise<TestResultsResult> {
  if (request.files.length === 0) return { status: "refused", errors: [{ file: "(import)", field: "files", message: "no files to import" }], totalErrors: 1 };
  const study = await requireLedStudy(account, request.study, client);
  const errors = new ErrorCollector();
  const skipped: JunitSkipped[] = [];
  const read: ReadOutcome[] = [];
  for (const file of request.files) {
    const text = readText(file, errors);
    if (text === null) continue;
    if (isJsonl(file, text)) {
      read.push(...parseOutcomesJsonl(text, file.name, errors));
    } else {
      const report = parseJunitXml(text, file.name, errors);
      skipped.push(...report.skipped);
      read.push(...outcomesOfJunit(report));
    }
  }

  // Each outcome's pull request and system: its file's, else the import's.
  const flagged = new Set<string>();
  const resolved = read.flatMap((o) => {
    const pullRequest = o.pullRequest ?? request.pullRequest?.trim() ?? "";
    const system = o.system ?? request.system?.trim() ?? "";
    const missing = [pullRequest === "" ? "pull request (--pr)" : null, system === "" ? "system (--system)" : null].filter((m) => m !== null);
    if (missing.length > 0) {
      if (!flagged.has(o.at.file)) errors.add(o.at, undefined, `the file names no ${missing.join(" and no ")}: give it to the import`);
      flagged.add(o.at.file);
      return [];
    }
    if (system === HUMAN_SYSTEM) {
      if (!flagged.has(o.at.file)) errors.add(o.at, "system", `the human reviewers ("${HUMAN_SYSTEM}") pass every test by construction; their outcomes are not imported`);
      flagged.add(o.at.file);
      return [];
    }
    return [{ ...o, pullRequest, system }];
  });
  const refs = [...new Set(resolved.map((o) => o.pullRequest))];
  const found = await client.pullRequest.findMany({
    where: { studyId: study.id, OR: [{ externalId: { in: refs } }, { url: { in: refs.filter((r) => r.includes("://")) } }] },
    select: { id: true, externalId: true, url: true, comments: { select: { id: true, externalId: true, testPath: true } } },
  });
  const pullRequestOf = (ref: string) => found.find((p) => p.externalId === ref) ?? found.find((p) => ref.includes("://") && p.url === ref);
  const rows: (TestOutcomeInput & { pullRequestId: string })[] = [];
  const warnings: string[] = [];
  for (const pr of found) {
    const own = resolved.filter((o) => pullRequestOf(o.pullRequest) === pr);
    const linked = linkOutcomes(own, pr.comments, errors);
    rows.push(...linked.outcomes.map((o) => ({ ...o, pullRequestId: pr.id })));
    warnings.push(...linked.warnings);
  }
  const unknown = new Set<string>();
  for (const o of resolved) {
    if (pullRequestOf(o.pullRequest) || unknown.has(o.pullRequest)) continue;
    unknown.add(o.pullRequest);
    errors.add(o.at, "pr", `"${o.pullRequest}" is not a pull request of study ${study.slug} (neither its id nor its URL)`);
  }
  const fileNames = request.files.map((f) => f.name);
  if (!errors.empty) return { status: "refused", errors: inFileOrder(errors.errors, fileNames), totalErrors: errors.total };

  const groups = [...new Map(rows.map((r) => [`${r.pullRequestId}\u0000${r.system}`, { pullRequestId: r.pullRequestId, system: r.system }])).values()];
  return client.$transaction(async (tx) => {
    const run = await tx.importRun.create({ data: { studyId: study.id, format: "test-results", files: fileNames, createdById: account === COMMAND_LINE ? null : account.id } });
    let replaced = 0;
    for (const group of groups) replaced += (await tx.testOutcome.deleteMany({ where: group })).count;
    await tx.testOutcome.createMany({
      data: rows.map((o) => ({
        pullRequestId: o.pullRequestId,
        system: o.system,
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
    for (const o of rows) byStatus[o.status]++;
    const summary: TestResultsSummary = {
      study: study.slug,
      pullRequests: found.filter((p) => groups.some((g) => g.pullRequestId === p.id)).map((p) => p.externalId).sort(),
      systems: [...new Set(groups.map((g) => g.system))].sort(),
      files: fileNames,
      tests: rows.length,
      byStatus,
      linked: rows.filter((o) => o.reviewCommentId !== null).length,
      replaced,
      skipped,
      warnings,
      importRunId: run.id,
    };
    await tx.importRun.update({ where: { id: run.id }, data: { summary: JSON.parse(JSON.stringify(summary)) as Prisma.InputJsonObject } });
    return { status: "imported" as const, summary };
  });
}

/** What the upload form offers: the study's pull requests (id and title) and the systems of its review comments, but the human reviewers. */
export async function testResultsTargets(account: Pick<SessionAccount, "id" | "role">, slug: string, client: PrismaClient = db): Promise<{ pullRequests: { externalId: string; title: string }[]; systems: string[] }> {
  const study = await requireLedStudy(account, slug, client);
  const [pullRequests, systems] = await Promise.all([
    client.pullRequest.findMany({ where: { studyId: study.id }, select: { externalId: true, title: true }, orderBy: { externalId: "asc" } }),
    client.reviewComment.findMany({ where: { pullRequest: { studyId: study.id }, system: { not: HUMAN_SYSTEM } }, select: { system: true }, distinct: ["system"], orderBy: { system: "asc" } }),
  ]);
  return { pullRequests, systems: systems.map((s) => s.system) };
}
