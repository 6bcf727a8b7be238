/**
 * c-CRAB Table 6 and Figure 6 of a study a lead leads (lib/analysis/comment-systems.ts): each
 * review comment's system and its consensus on the usefulness and category questions of comment
 * questions.
 */
import "server-only";
import { db } from "@/lib/db/client";
import { requireLedStudy } from "@/lib/data/study-access";
import { taskConsensus } from "@/lib/data/consensus";
import { categoryDistribution, usefulnessTable, type CategoryDistribution, type UsefulnessTable } from "@/lib/analysis/comment-systems";
import type { SessionAccount } from "@/lib/auth/authenticate";

export interface CommentSystemTables {
  study: { slug: string; name: string };
  /** Table 6; null (with why) when the study asks no such yes/no question. */
  usefulness: UsefulnessTable | null;
  /** Figure 6; null (with why) when the study asks no such choice question. */
  categories: CategoryDistribution | null;
  /** Why a table is missing. */
  notes: string[];
}

/** Table 6 and Figure 6 from the study's questions `useful` and `category` (or the keys given). */
export async function commentSystemTables(account: Pick<SessionAccount, "id" | "role">, slug: string, keys: { useful?: string; category?: string } = {}): Promise<CommentSystemTables> {
  const study = await requireLedStudy(account, slug);
  const usefulKey = keys.useful ?? "useful";
  const categoryKey = keys.category ?? "category";
  const notes: string[] = [];
  const base = { study: { slug: study.slug, name: study.name } };
  if (!study.tasks.includes("COMMENT_QUESTIONS")) return { ...base, usefulness: null, categories: null, notes: ["The study has no comment questions."] };
  const useful = study.commentQuestions.find((q) => q.key === usefulKey && q.kind === "binary");
  const category = study.commentQuestions.find((q) => q.key === categoryKey && q.kind === "choice");
  if (!useful) notes.push(`No yes/no question "${usefulKey}" in this study: no usefulness table.`);
  if (!category) notes.push(`No choice question "${categoryKey}" in this study: no category distribution.`);
  const [consensus, comments] = await Promise.all([taskConsensus(db, study, "COMMENT_QUESTIONS"), db.reviewComment.findMany({ where: { pullRequest: { studyId: study.id } }, select: { id: true, system: true } })]);
  const of = (key: string) => comments.map((c) => ({ system: c.system, consensus: consensus.get(c.id)?.get(key)?.value ?? null }));
  return {
    ...base,
    usefulness: useful ? usefulnessTable(useful.key, of(useful.key)) : null,
    categories: category && category.kind === "choice" ? categoryDistribution(category.key, category.options, of(category.key)) : null,
    notes,
  };
}
