/**
 * An answer's code on its question's scale, as the analyses read it in SQL (lib/data/task-answers.ts):
 * its 1-based position on the scale, 0 when it is off the scale, -1 when it was not answered.
 * Where the answer is stored comes from the task's descriptor (`storage`, `answer`).
 */
import "server-only";
import { Prisma } from "@/lib/db/client";
import type { Question } from "@/lib/analysis/questions";
import { ITEM_TABLES, type TaskDescriptor } from "@/lib/tasks/types";

/** The code of an answer given as text (a label, or a number's text as JavaScript writes it; NULL when not answered). */
function textAnswerCode(value: Prisma.Sql, question: Question): Prisma.Sql {
  return Prisma.sql`coalesce(array_position(${question.scale.map(String)}::text[], ${value}), CASE WHEN ${value} IS NULL THEN -1 ELSE 0 END)`;
}

/**
 * The code of a JSON number (a Likert score in a jsonb object): compared as jsonb, which
 * compares numbers by value, so no text is made per answer; anything but a number is not answered.
 */
function jsonNumberAnswerCode(answer: Prisma.Sql, question: Question): Prisma.Sql {
  const positions = question.scale.map((v, i) => Prisma.sql`WHEN ${JSON.stringify(v)}::jsonb THEN ${Prisma.raw(String(i + 1))}`);
  return Prisma.sql`CASE ${answer} ${Prisma.join(positions, " ")} ELSE CASE WHEN jsonb_typeof(${answer}) = 'number' THEN 0 ELSE -1 END END`;
}

/** The code of the task's answer to `question` in the annotation row `a`. */
export function answerCode(task: TaskDescriptor, question: Question): Prisma.Sql {
  const column = task.answer(question);
  return "text" in column ? textAnswerCode(Prisma.raw(column.text), question) : jsonNumberAnswerCode(Prisma.sql`a.${Prisma.raw(`"${column.jsonNumber}"`)} -> ${question.key}`, question);
}

/** The task's annotation table, its item column and its items' table, as SQL identifiers (from the descriptor's constants). */
export function annotationTables(task: TaskDescriptor): { annotations: Prisma.Sql; itemColumn: Prisma.Sql; items: Prisma.Sql } {
  return { annotations: Prisma.raw(`"${task.storage.table}"`), itemColumn: Prisma.raw(`"${task.storage.item.column}"`), items: Prisma.raw(`"${ITEM_TABLES[task.itemKind]}"`) };
}
