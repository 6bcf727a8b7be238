/**
 * The tools report of a study a lead leads (lib/analysis/tools-report.ts): its stored test
 * outcomes, each with the consensus category of the human comment whose test it is (the study's
 * choice question `category`, or the key given).
 */
import "server-only";
import { db, type PrismaClient } from "@/lib/db/client";
import { requireLedStudy } from "@/lib/data/study-access";
import { taskConsensus } from "@/lib/data/adjudication";
import { toolsReport, type ToolsReport } from "@/lib/analysis/tools-report";
import type { SessionAccount } from "@/lib/auth/authenticate";

export interface StudyToolsReport extends ToolsReport {
  study: { slug: string; name: string };
  /** The category question read, or null when the study asks none. */
  categoryQuestion: string | null;
}

export async function studyToolsReport(account: Pick<SessionAccount, "id" | "role">, slug: string, keys: { category?: string } = {}, client: PrismaClient = db): Promise<StudyToolsReport> {
  const study = await requireLedStudy(account, slug, client);
  const categoryKey = keys.category ?? "category";
  const question = study.tasks.includes("COMMENT_QUESTIONS") ? study.commentQuestions.find((q) => q.key === categoryKey && q.kind === "choice") : undefined;
  const [rows, consensus] = await Promise.all([
    client.testOutcome.findMany({
      where: { pullRequest: { studyId: study.id } },
      select: { system: true, testId: true, status: true, reviewCommentId: true, pullRequest: { select: { externalId: true } } },
      orderBy: [{ pullRequestId: "asc" }, { system: "asc" }, { testId: "asc" }],
    }),
    question ? taskConsensus(client, study, "COMMENT_QUESTIONS") : Promise.resolve(null),
  ]);
  const categoryOf = (commentId: string | null) => {
    const value = commentId === null ? undefined : consensus?.get(commentId)?.get(categoryKey)?.value;
    return typeof value === "string" ? value : null;
  };
  const report = toolsReport(
    rows.map((r) => ({ pullRequest: r.pullRequest.externalId, system: r.system, testId: r.testId, passed: r.status === "PASSED", category: categoryOf(r.reviewCommentId) })),
    question?.kind === "choice" ? question.options.map((o) => o.code) : null,
  );
  const notes = question ? report.notes : [...report.notes, `No choice question "${categoryKey}" in this study: no pass rates per category.`];
  return { study: { slug: study.slug, name: study.name }, categoryQuestion: question?.key ?? null, ...report, notes };
}
