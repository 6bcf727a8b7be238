/**
 * The tools report of a study a lead leads (lib/analysis/tools-report.ts): its stored test
 * outcomes, each with the consensus answers of the human comment whose test it is (the study's
 * choice question `category`, or the key given, and its yes/no questions).
 */
import "server-only";
import { db, type PrismaClient } from "@/lib/db/client";
import { requireLedStudy } from "@/lib/data/study-access";
import { taskConsensus } from "@/lib/data/consensus";
import { toolsReport, type ToolsReport } from "@/lib/analysis/tools-report";
import { HUMAN_SYSTEM, usefulnessTable, type UsefulnessTable } from "@/lib/analysis/comment-systems";
import { locationMatching, type LocationMatching } from "@/lib/analysis/comment-matching";
import type { SessionAccount } from "@/lib/auth/authenticate";

export interface StudyToolsReport extends ToolsReport {
  study: { slug: string; name: string };
  /** The category question read, or null when the study asks none. */
  categoryQuestion: string | null;
  /** The category codes' labels in the codebook (empty without a category question). */
  categoryLabels: Record<string, string>;
  /** c-CRAB Table 6 beside the pass rates (lib/analysis/comment-systems.ts); null without the yes/no question `useful`. */
  usefulness: UsefulnessTable | null;
  /** Systems' comments matched to the human reviewers' by the location matcher; null without both. */
  matching: LocationMatching | null;
}

/** The location matcher's default k: comments within 3 lines of each other are at the same place. */
export const DEFAULT_MATCH_LINES = 3;

export async function studyToolsReport(account: Pick<SessionAccount, "id" | "role">, slug: string, keys: { category?: string; matchLines?: number } = {}, client: PrismaClient = db): Promise<StudyToolsReport> {
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
    client.reviewComment.findMany({
      where: { pullRequest: { studyId: study.id } },
      select: { id: true, system: true, path: true, side: true, startSide: true, startLine: true, line: true, pullRequest: { select: { externalId: true } } },
      orderBy: [{ pullRequestId: "asc" }, { position: "asc" }],
    }),
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
  const located = comments.map((c) => ({ id: c.id, pullRequest: c.pullRequest.externalId, system: c.system, path: c.path, side: c.side, startSide: c.startSide, startLine: c.startLine, line: c.line }));
  const matching = located.some((c) => c.system === HUMAN_SYSTEM) && located.some((c) => c.system !== HUMAN_SYSTEM) ? locationMatching(located, keys.matchLines ?? DEFAULT_MATCH_LINES, useful ? (id) => answerOf(id, useful.key) : null) : null;
  if (!matching) notes.push("Matching needs review comments of the human reviewers and of a system on the study's pull requests: no matching recall or precision.");
  return { study: { slug: study.slug, name: study.name }, categoryQuestion: category?.key ?? null, categoryLabels, matching, ...report, usefulness, notes };
}
