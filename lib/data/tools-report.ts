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
import { HUMAN_SYSTEM, usefulnessAgainstScores, usefulnessTable, type UsefulnessAgainstScores, type UsefulnessTable } from "@/lib/analysis/comment-systems";
import { humanMatching, judgeMatching, judgeSignature, locationMatching, storedLocationMatching, type HumanMatching, type JudgeMatching, type JudgedMatch, type LocatedComment, type LocationMatching, type StoredLocationMatching } from "@/lib/analysis/comment-matching";
import { matcherRunPairs, studyLocatedComments, studyMatcherRuns } from "@/lib/data/matcher-runs";
import { matchDegrees } from "@/lib/annotation/comment-answers";
import { pairItemId } from "@/lib/tasks/comment-questions";
import type { SessionAccount } from "@/lib/auth/authenticate";

export interface StudyToolsReport extends ToolsReport {
  study: { slug: string; name: string };
  /** The category question read, or null when the study asks none. */
  categoryQuestion: string | null;
  /** The category codes' labels in the codebook (empty without a category question). */
  categoryLabels: Record<string, string>;
  /** c-CRAB Table 6 beside the pass rates (lib/analysis/comment-systems.ts); null without the yes/no question `useful`. */
  usefulness: UsefulnessTable | null;
  /** Systems' comments matched to the human reviewers' by the location matcher (scored against the human matching when there is one); null without both. */
  matching: LocationMatching | null;
  /** The annotators' matching question's consensus (fully or partly: a match); null when the study does not ask it or has no such pairs. */
  humanMatching: HumanMatching | null;
  /** The stored runs of the location matcher (MatcherRun): the newest finished run of each signature, newest first, from the pairs it stored, scored against the human matching. */
  matcherRuns: StoredLocationMatching[];
  /** The LLM matchers: each judge rater's answers to the matching question (its runs' model, prompt version, temperature and seed as its signature), scored against the human matching. */
  llmMatching: JudgeMatching[];
  /** Each system's useful share against its mean s_i; null without the question `useful`. */
  usefulnessAgainstScores: UsefulnessAgainstScores | null;
}

/** Each judge rater's matching (its answers fully or partly) as an LLM matcher, named by its runs on the question; in judge name order. */
async function judgeMatchings(client: PrismaClient, studyId: string, key: string, located: Parameters<typeof judgeMatching>[2], usefulAnswer: ((id: string) => string | null) | null, human: JudgedMatch[] | null): Promise<JudgeMatching[]> {
  const [answers, runs] = await Promise.all([
    client.commentAnswers.findMany({ where: { reviewComment: { pullRequest: { studyId } }, annotator: { kind: "JUDGE" } }, select: { reviewCommentId: true, answers: true, annotatorId: true }, orderBy: { id: "asc" } }),
    client.judgeRun.findMany({ where: { studyId, task: "COMMENT_QUESTIONS", question: key }, orderBy: { createdAt: "asc" }, select: { judgeId: true, model: true, promptVersion: true, temperature: true, seed: true, trials: true, judge: { select: { name: true } } } }),
  ]);
  const judges = [...new Map(runs.map((r) => [r.judgeId, r])).values()].sort((a, b) => (a.judge.name < b.judge.name ? -1 : 1));
  return judges.map((judge) => {
    const pairs = answers
      .filter((a) => a.annotatorId === judge.judgeId)
      .flatMap((a) => Object.entries(matchDegrees((a.answers as Record<string, never>)[key])).flatMap(([humanCommentId, degree]): JudgedMatch[] => (degree === "none" ? [] : [{ commentId: a.reviewCommentId, humanCommentId, degree }])));
    return judgeMatching(judge.judge.name, judgeSignature(judge.judge.name, runs.filter((r) => r.judgeId === judge.judgeId)), located, pairs, usefulAnswer, human);
  });
}

/** The newest finished run of each signature, newest first, read from the pairs it stored. */
async function storedMatchings(client: PrismaClient, located: LocatedComment[], runs: Awaited<ReturnType<typeof studyMatcherRuns>>, usefulAnswer: ((id: string) => string | null) | null, human: JudgedMatch[] | null): Promise<StoredLocationMatching[]> {
  const newest = runs.filter((r) => r.status === "DONE").filter((r, i, done) => done.findIndex((d) => d.signature === r.signature) === i);
  const pairs = await matcherRunPairs(newest.map((r) => r.id), client);
  return newest.map((r) => storedLocationMatching({ id: r.id, createdAt: r.createdAt, k: (r.params as { k: number }).k, signature: r.signature }, located, pairs.get(r.id) ?? [], usefulAnswer, human));
}

/** The location matcher's default k: comments within 3 lines of each other are at the same place. */
export const DEFAULT_MATCH_LINES = 3;

export async function studyToolsReport(account: Pick<SessionAccount, "id" | "role">, slug: string, keys: { category?: string; matchLines?: number } = {}, client: PrismaClient = db): Promise<StudyToolsReport> {
  const study = await requireLedStudy(account, slug, client);
  const categoryKey = keys.category ?? "category";
  const asked = study.tasks.includes("COMMENT_QUESTIONS") ? study.commentQuestions : [];
  const category = asked.find((q) => q.key === categoryKey && q.kind === "choice");
  const useful = asked.find((q) => q.key === "useful" && q.kind === "binary");
  const matchQuestion = asked.find((q) => q.kind === "match");
  const [rows, consensus, located, runs] = await Promise.all([
    client.testOutcome.findMany({
      where: { pullRequest: { studyId: study.id } },
      select: { system: true, testId: true, status: true, reviewCommentId: true, pullRequest: { select: { externalId: true } } },
      orderBy: [{ pullRequestId: "asc" }, { system: "asc" }, { testId: "asc" }],
    }),
    asked.length > 0 ? taskConsensus(client, study, "COMMENT_QUESTIONS") : Promise.resolve(null),
    studyLocatedComments(study.id, client),
    studyMatcherRuns(study.id, client),
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
  const usefulness = useful ? usefulnessTable(useful.key, located.map((c) => ({ system: c.system, consensus: consensus?.get(c.id)?.get(useful.key)?.value ?? null }))) : null;
  const categoryLabels = category?.kind === "choice" ? Object.fromEntries(category.options.map((o) => [o.code, o.label])) : {};
  const both = located.some((c) => c.system === HUMAN_SYSTEM) && located.some((c) => c.system !== HUMAN_SYSTEM);
  const usefulAnswer = useful ? (id: string) => answerOf(id, useful.key) : null;
  // The human matching: each (system comment, human comment) pair's consensus degree.
  const judged: JudgedMatch[] = [];
  let decided = 0;
  if (both && matchQuestion) {
    const humans = located.filter((c) => c.system === HUMAN_SYSTEM);
    for (const c of located) {
      if (c.system === HUMAN_SYSTEM) continue;
      for (const h of humans) {
        if (h.pullRequest !== c.pullRequest) continue;
        const degree = answerOf(pairItemId(c.id, h.id), matchQuestion.key);
        if (degree === null) continue;
        decided++;
        if (degree === "fully" || degree === "partly") judged.push({ commentId: c.id, humanCommentId: h.id, degree });
      }
    }
  }
  const human = both && matchQuestion ? humanMatching(located, judged, decided, usefulAnswer) : null;
  if (both && !matchQuestion) notes.push("The study does not ask the matching question: no human matching, and the matchers are not scored against one.");
  else if (human && human.decided === 0) notes.push("No pair of a system's comment and a human comment has a consensus on the matching question yet: the human matching is empty.");
  const matching = both ? locationMatching(located, keys.matchLines ?? DEFAULT_MATCH_LINES, usefulAnswer, human && human.decided > 0 ? judged : null) : null;
  if (!matching) notes.push("Matching needs review comments of the human reviewers and of a system on the study's pull requests: no matching recall or precision.");
  const matcherRuns = both ? await storedMatchings(client, located, runs, usefulAnswer, human && human.decided > 0 ? judged : null) : [];
  const llmMatching = both && matchQuestion ? await judgeMatchings(client, study.id, matchQuestion.key, located, usefulAnswer, human && human.decided > 0 ? judged : null) : [];
  const meanScores = new Map(report.systems.map((r) => [r.system, r.macroPassRate.value]));
  const againstScores = usefulness ? usefulnessAgainstScores(usefulness, meanScores) : null;
  if (againstScores?.reason) notes.push(`The correlation of the systems' useful share with their mean s_i is undefined: ${againstScores.reason}.`);
  return { study: { slug: study.slug, name: study.name }, categoryQuestion: category?.key ?? null, categoryLabels, matching, humanMatching: human, matcherRuns, llmMatching, usefulnessAgainstScores: againstScores, ...report, usefulness, notes };
}
