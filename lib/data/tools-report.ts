/**
 * The tools report of a study a lead leads (lib/analysis/tools-report.ts): its stored test
 * outcomes, each with the consensus answers of the human comment whose test it is (the study's
 * choice question `category`, or the key given, and its yes/no questions).
 */
import "server-only";
import { db, type PrismaClient } from "@/lib/db/client";
import { requireLedStudy } from "@/lib/data/study-access";
import { taskConsensus } from "@/lib/data/adjudication";
import { toolsReport, type ToolsReport } from "@/lib/analysis/tools-report";
import { usefulnessTable, type UsefulnessTable } from "@/lib/analysis/comment-systems";
import type { SessionAccount } from "@/lib/auth/authenticate";

export interface StudyToolsReport extends ToolsReport {
  study: { slug: string; name: string };
  /** The category question read, or null when the study asks none. */
  categoryQuestion: string | null;
  /** The category codes' labels in the codebook (empty without a category question). */
  categoryLabels: Record<string, string>;
  /** c-CRAB Table 6 beside the pass rates (lib/analysis/comment-systems.ts); null without the yes/no question `useful`. */
  usefulness: UsefulnessTable | null;
}

export async function studyToolsReport(account: Pick<SessionAccount, "id" | "role">, slug: string, keys: { category?: string } = {}, client: PrismaClient = db): Promise<StudyToolsReport> {
  const study = await requireLedStudy(account, slug, client);
  const categoryKey = keys.category ?? "category";
  const asked = study.tasks.includes("COMMENT_QUESTIONS") ? study.commentQuestions : [];
  const category = asked.find((q) => q.key === categoryKey && q.kind === "choice");
  const useful = asked.find((q) => q.key === "useful" && q.kind === "binary");
  const [rows, consensus, comments] = await Promise.all([
    client.testOutcome.findMany({
      where: { pullRequest: { studyId: study.id } },
      select: { system: true, testId: true, status: true, reviewCommentId: true, pullRequest: { select: { externalId: true } } },
      orderBy: [{ pullRequestId: "asc" }, { system: "asc" }, { testId: "asc" }],
    }),
    asked.length > 0 ? taskConsensus(client, study, "COMMENT_QUESTIONS") : Promise.resolve(null),
    useful ? client.reviewComment.findMany({ where: { pullRequest: { studyId: study.id } }, select: { id: true, system: true } }) : Promise.resolve([]),
  ]);
  const answerOf = (commentId: string, question: string) => {
    const value = consensus?.get(commentId)?.get(question)?.value;
    return typeof value === "string" ? value : null;
  };
  const report = toolsReport(
    rows.map((r) => ({ pullRequest: r.pullRequest.externalId, system: r.system, testId: r.testId, passed: r.status === "PASSED", comment: r.reviewCommentId })),
    { category: category?.kind === "choice" ? { key: category.key, codes: category.options.map((o) => o.code) } : null, binary: asked.filter((q) => q.kind === "binary").map((q) => q.key) },
    answerOf,
  );
  const notes = category ? report.notes : [...report.notes, `No choice question "${categoryKey}" in this study: no pass rates per category.`];
  const usefulness = useful ? usefulnessTable(useful.key, comments.map((c) => ({ system: c.system, consensus: consensus?.get(c.id)?.get(useful.key)?.value ?? null }))) : null;
  const categoryLabels = category?.kind === "choice" ? Object.fromEntries(category.options.map((o) => [o.code, o.label])) : {};
  return { study: { slug: study.slug, name: study.name }, categoryQuestion: category?.key ?? null, categoryLabels, ...report, usefulness, notes };
}
