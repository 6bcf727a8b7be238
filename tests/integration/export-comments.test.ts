/**
 * Review comments' rows in the long and wide exports on a real PostgreSQL: each answer of comment
 * questions with its comment's anchor (path, side, startLine, line) and thread (the thread's first
 * comment), the columns only a study with review comments has (CSV) or only comment rows carry
 * (JSONL); an answer on another file of a pull request whose one assignment lies on its first file
 * is a draft until that assignment is submitted, as the analyses count it.
 */
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { COMMENT_QUESTION_TEMPLATES } from "@/lib/annotation/comment-questions";
import { createCommentQuestionsFixture, removeCommentQuestionsFixture, type CommentQuestionsFixture } from "./comment-questions-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { streamExport, exportOffer } = await import("@/lib/data/exports");
const { generateAssignments } = await import("@/lib/data/assignment-admin");

let fx: CommentQuestionsFixture;

async function exported(format: "long-csv" | "long-jsonl" | "wide-csv" | "wide-jsonl"): Promise<string> {
  let text = "";
  for await (const chunk of streamExport({ studyId: fx.study.studyId, format })) text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  return text;
}
const jsonLines = (text: string) => text.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  fx = await createCommentQuestionsFixture(db, `ec${Date.now()}`, [COMMENT_QUESTION_TEMPLATES.useful, COMMENT_QUESTION_TEMPLATES.category]);
  await generateAssignments({ id: fx.accounts.lead, role: "LEAD" }, fx.study.slug, [fx.accounts.ann1, fx.accounts.ann2]);
  const c = fx.study.comments;
  // c1 is on b.py, the pull request's second file; c4 answers c2 on a.py.
  await db.commentAnswers.createMany({
    data: [
      { annotatorId: fx.accounts.ann1, reviewCommentId: c.c1, answers: { useful: true, category: "SECURITY" }, notes: { useful: "a leak" } },
      { annotatorId: fx.accounts.ann2, reviewCommentId: c.c1, answers: { useful: true }, notes: {} },
      { annotatorId: fx.accounts.ann1, reviewCommentId: c.c4, answers: { useful: false }, notes: {} },
    ],
  });
  // ann1 submitted the pull request; ann2 has not.
  await db.assignment.updateMany({ where: { annotatorId: fx.accounts.ann1, studyId: fx.study.studyId }, data: { status: "DONE", completedAt: new Date("2026-01-02T03:04:05Z") } });
});
afterAll(async () => {
  await removeCommentQuestionsFixture(db, fx);
  await db.$disconnect();
});

describe("comment rows in the long and wide exports", () => {
  test("the long and wide formats are offered for a study whose only annotations are comment answers", async () => {
    expect((await exportOffer(fx.study.studyId)).formats).toEqual(expect.arrayContaining(["long-csv", "wide-csv", "github-comments"]));
  });

  test("long JSONL: each answer with its comment's anchor and thread; a draft where the pull request is not submitted", async () => {
    const rows = jsonLines(await exported("long-jsonl"));
    const of = (item: string, annotator: string, question: string) => rows.find((r) => r.item === item && r.annotatorId === fx.accounts[annotator as "ann1"] && r.question === question);
    expect(of("c1", "ann1", "useful")).toMatchObject({ task: "COMMENT_QUESTIONS", codeChange: "pr-1:b.py", itemKind: "reviewComment", itemText: "comment c1", system: "claude-code", value: "yes", status: "submitted", path: "b.py", side: "RIGHT", startLine: null, line: 2, thread: "c1" });
    expect(of("c1", "ann1", "useful:justification")).toMatchObject({ value: "a leak" });
    expect(of("c1", "ann1", "category")).toMatchObject({ value: "SECURITY" });
    // ann2's answer on b.py: the pull request's assignment (on a.py) is not submitted.
    expect(of("c1", "ann2", "useful")).toMatchObject({ value: "yes", status: "draft", submittedAt: null });
    // A reply is in its thread, named by the thread's first comment.
    expect(of("c4", "ann1", "useful")).toMatchObject({ codeChange: "pr-1:a.py", path: "a.py", line: 1, thread: "c2", value: "no" });
    expect(rows).toHaveLength(5);
  });

  test("long CSV: the anchor's columns after the others; wide CSV and JSONL carry them on comment rows", async () => {
    const [header, ...records] = parse(await exported("long-csv")) as string[][];
    expect(header.slice(-5)).toEqual(["path", "side", "startLine", "line", "thread"]);
    const c4 = records.find((r) => r[header.indexOf("item")] === "c4")!;
    expect(c4.slice(-5)).toEqual(["a.py", "RIGHT", "", "1", "c2"]);
    const [wideHeader, ...wideRows] = parse(await exported("wide-csv")) as string[][];
    expect(wideHeader.slice(0, 12)).toEqual(["task", "codeChange", "item", "itemText", "itemKind", "system", "question", "path", "side", "startLine", "line", "thread"]);
    const useful = wideRows.find((r) => r[2] === "c1" && r[6] === "useful")!;
    expect(useful.slice(7, 12)).toEqual(["b.py", "RIGHT", "", "2", "c1"]);
    const wideJson = jsonLines(await exported("wide-jsonl"));
    expect(wideJson.find((r) => r.item === "c4")).toMatchObject({ path: "a.py", side: "RIGHT", startLine: null, line: 1, thread: "c2" });
  });
});
