/**
 * Comment questions, c-CRAB §4.2.1, §4.4.3, §5.2 and §5.3: the study's questions (usefulness, a
 * category from a codebook, a linked test's faithfulness, Likert scores, grades: see
 * lib/annotation/comment-questions.ts) answered of each review comment of a pull request. One
 * annotation per annotator and comment holds its answers to every question (`CommentAnswers`),
 * so the workspace saves a comment's whole value at once like a rating's scores.
 *
 * The assignment covers a pull request: it is stored on the pull request's first file (its code
 * change of lowest position), which is the code change its `appliesTo` counts the pull request's
 * comments on; the items it covers are the pull request's comments (`itemOfAssignmentSql`).
 */
import { letterLabel, seededShuffle } from "@/lib/annotation/random";
import { missingEntry } from "@/lib/annotation/completeness";
import { commentAnswersValue, type CommentAnswersValue, type CommentQuestion, type MatchDegree } from "@/lib/annotation/comment-questions";
import { answerOnScale, answerOptions, askedComment, emptyCommentAnswers, humanCommentIds, matchDegrees, missingOfComment, questionScale } from "@/lib/annotation/comment-answers";
import type { Question, StudyScales } from "@/lib/analysis/questions";
import { nonEmpty } from "./reviews";
import { storedEntry, type ExportedRating, type JudgeQuestion, type TaskDescriptor, type TaskWorkspace, type WorkspaceComment } from "./types";
import type { AnnotatedReviewComment } from "@/lib/export/rows";

/** A stored JSON object column as a plain record ({} for anything else). */
const record = <V>(json: unknown): Record<string, V> => (json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, V>) : {});

export const answersValue = (row: { answers: unknown; notes: unknown }): CommentAnswersValue => ({ answers: record(row.answers), notes: record(row.notes) });

/** The Question agreement, adjudication and consensus compute on for one comment question (the matching question's items are pairs of a system's comment and a human comment: `pairItemId`). */
export function commentQuestion(question: CommentQuestion, study: { likertMin: number; likertMax: number }): Question {
  const ordinal = question.kind === "likert" || question.kind === "grade" || question.kind === "match";
  return { task: "COMMENT_QUESTIONS", key: question.key, label: question.label, level: ordinal ? "ordinal" : "nominal", scale: questionScale(question, study), weights: ordinal ? "quadratic" : "unweighted", ...(question.kind === "match" ? { pairs: true as const } : {}) };
}

/** The question as a judge rater answers it: its options' words, and its answer merged into the judge's answers of the comment. */
/** The matching question as the LLM matcher: is the comment's concern the human comment's (given as the reference)? */
function judgeMatchingQuestion(question: CommentQuestion, study: StudyScales): JudgeQuestion {
  return {
    task: "COMMENT_QUESTIONS",
    key: question.key,
    text: "Does the review comment (the text to judge) raise the same concern as the human reviewer's comment (given as the reference review)? Fully: the same concern; partly: part of it or a closely related one; none: a different concern. (c-CRAB §5.2)",
    kind: "commentAnswers",
    options: answerOptions(question, study).map((o) => ({ answer: String(o.value), label: o.label, description: o.description })),
    pairs: true,
    apply: (current, answer, _reason, _links, human) => {
      const value: CommentAnswersValue = { ...emptyCommentAnswers(), ...(current as Partial<CommentAnswersValue> | null) };
      return { ...value, answers: { ...value.answers, [question.key]: { ...matchDegrees(value.answers[question.key]), [human!]: String(answer) as MatchDegree } } };
    },
  };
}

function judgeCommentQuestion(question: CommentQuestion, study: StudyScales): JudgeQuestion {
  if (question.kind === "match") return judgeMatchingQuestion(question, study);
  const options = answerOptions(question, study);
  const word = (value: unknown) => (typeof value === "boolean" ? (value ? "yes" : "no") : String(value));
  return {
    task: "COMMENT_QUESTIONS",
    key: question.key,
    text: question.description ? `${question.label} ${question.description}` : question.label,
    kind: "commentAnswers",
    options: options.map((o) => ({ answer: word(o.value), label: o.label, description: o.description })),
    withTest: question.kind === "binary" && question.withTest,
    apply: (current, answer, reason) => {
      const value: CommentAnswersValue = { ...emptyCommentAnswers(), ...(current as Partial<CommentAnswersValue> | null) };
      const stored = options.find((o) => word(o.value) === answer)!.value;
      const notes = question.justification === "none" || !reason ? value.notes : { ...value.notes, [question.key]: reason.slice(0, 5000) };
      return { answers: { ...value.answers, [question.key]: stored }, notes };
    },
  };
}

/** "Reviewer A", ... for each system of the pull request, in an order shuffled by `seed` (systems sorted first, so the order depends on the seed alone). */
export function reviewerLabels(systems: readonly string[], seed: number): Map<string, string> {
  const distinct = [...new Set(systems)].sort();
  return new Map(seededShuffle(distinct, seed).map((system, i) => [system, `Reviewer ${letterLabel(i)}`]));
}

/**
 * The item of the matching question: a (system comment, human comment) pair, whose id joins the
 * two comments' ids (cuids: letters and digits) with a colon.
 */
export const pairItemId = (commentId: string, humanCommentId: string) => `${commentId}:${humanCommentId}`;

/** The two comments of a pair item's id, or null for a comment's id. */
export function pairOfItem(itemId: string): { commentId: string; humanCommentId: string } | null {
  const at = itemId.indexOf(":");
  return at < 0 ? null : { commentId: itemId.slice(0, at), humanCommentId: itemId.slice(at + 1) };
}

/** The export column of the matching question toward one human comment: QUESTION:HUMAN_EXTERNAL_ID. */
export const pairColumn = (question: string, humanExternalId: string) => `${question}:${humanExternalId}`;

/**
 * The matching question's ratings of a system comment in an export, by human comment (its
 * external id, as the exports key the degrees): each annotator's degree toward it.
 */
export function pairRatings(comment: AnnotatedReviewComment, question: Question): Map<string, ExportedRating[]> {
  const out = new Map<string, ExportedRating[]>();
  for (const a of comment.commentAnswers) {
    for (const [human, degree] of Object.entries(matchDegrees(a.answers[question.key]))) {
      if (!out.has(human)) out.set(human, []);
      out.get(human)!.push({ annotatorId: a.annotator.id, value: degree });
    }
  }
  return out;
}

/** A comment's label in the missing list: its place in reading order and where it is. */
const commentLabel = (c: WorkspaceComment, index: number) => `Comment ${index + 1} (${c.path}${c.line === null ? "" : `:${c.line}`})`;

export const commentQuestions: TaskDescriptor = {
  task: "COMMENT_QUESTIONS",
  name: "comment questions",
  label: "Comment questions",
  annotationName: "comment answers",
  values: {
    commentAnswers: {
      schema: commentAnswersValue,
      history: "COMMENT_ANSWERS",
      row: {
        fields: [
          { name: "answers", type: "jsonb" },
          { name: "notes", type: "jsonb" },
        ],
        itemCondition: "true",
        notFound: "No such review comment in this pull request.",
      },
    },
  },
  timeKey: "comment",
  itemKind: "reviewComment",
  storage: { model: "commentAnswers", table: "CommentAnswers", item: { column: "reviewCommentId", field: "reviewCommentId", relation: "reviewComment" } },
  appliesTo: (item) => item.pullRequestComments > 0,
  questions: (study) => study.commentQuestions.map((q) => commentQuestion(q, study)),
  judgeQuestions: (study) => study.commentQuestions.map((q) => judgeCommentQuestion(q, study)),
  answer(question) {
    const key = `'${question.key}'`; // keys are [a-z0-9-] (commentQuestionsSetting)
    // The matching question's answers are read per pair (lib/data/task-answers.ts): the degree of one human comment.
    if (question.pairs) return { text: `a."degree"` };
    if (question.level === "ordinal") return { jsonNumber: "answers" };
    if (question.scale.length === 2 && question.scale[0] === "no" && question.scale[1] === "yes") return { text: `CASE a."answers" -> ${key} WHEN 'true'::jsonb THEN 'yes' WHEN 'false'::jsonb THEN 'no' END` };
    return { text: `a."answers" ->> ${key}` };
  },
  stored: (workspace) => (workspace.commentQuestions?.comments ?? []).map((c) => storedEntry("commentAnswers", c.id, workspace.commentQuestions!.answers[c.id])),
  missing(workspace: TaskWorkspace, answer) {
    const part = workspace.commentQuestions;
    if (!part) return [];
    const humans = humanCommentIds(part.comments);
    return part.comments.flatMap((comment, index) =>
      missingEntry("commentAnswers", comment.id, commentLabel(comment, index), missingOfComment(answer("commentAnswers", comment.id) as CommentAnswersValue | null, part.questions, askedComment(comment, humans), part)),
    );
  },

  // The study's codebooks of choice questions (c-CRAB §5.3's categories unless the lead edits them).
  codebook: (study) => study.commentQuestions.flatMap((q) => (q.kind === "choice" ? [{ title: q.label, entries: q.options.map((o) => ({ key: o.code, label: o.label, description: o.description })) }] : [])),
  // Its workspace is the pull request's: j/k go from comment to comment across files, then these.
  shortcuts: [
    { keys: ["l", "→"], description: "Next question of the comment" },
    { keys: ["h", "←"], description: "Previous question of the comment" },
    {
      keys: ["1", "0"],
      description: "Yes / no to the marked yes-or-no question (also y / u); on a codebook question 1…9 and 0 pick its options (the tenth is 0), on a score its digit; moves on to the next question, after the last one to the next comment (not before a required justification is written: m)",
    },
  ],

  export: {
    of: "reviewComment",
    // The matching question's degrees are keyed by comment id in the database, by the human comment's external id in the exports.
    annotations: {
      field: "commentAnswers",
      columns: [
        `(SELECT jsonb_object_agg(e.key, CASE WHEN jsonb_typeof(e.value) = 'object'
      THEN (SELECT coalesce(jsonb_object_agg(coalesce(h."externalId", m.key), m.value), '{}'::jsonb) FROM jsonb_each(e.value) m LEFT JOIN "ReviewComment" h ON h.id = m.key)
      ELSE e.value END) FROM jsonb_each(t.answers) e)`,
        "t.notes",
      ],
      row: (r) => ({ answers: r[0] ?? {}, notes: r[1] ?? {} }),
    },
    values: (comment, study) =>
      comment.commentAnswers.map((a) => ({
        annotation: a,
        values: study.commentQuestions.flatMap((q): [string, string | null][] => {
          if (q.kind === "match") return Object.entries(matchDegrees(a.answers[q.key])).map(([human, degree]) => [pairColumn(q.key, human), degree]);
          const value = answerOnScale(q, a.answers[q.key], study);
          const note: [string, string | null][] = q.justification === "none" ? [] : [[`${q.key}:justification`, nonEmpty(a.notes[q.key] ?? "")]];
          return [[q.key, value === null ? null : String(value)], ...note];
        }),
      })),
    ratings: (comment, question, study) => {
      const q = study.commentQuestions.find((c) => c.key === question.key);
      return comment.commentAnswers.map((a) => ({ annotatorId: a.annotator.id, value: q ? answerOnScale(q, a.answers[q.key], study) : null }));
    },
  },

  consensusColumn: (question, value) => [question, String(value)],
};
