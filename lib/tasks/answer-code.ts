/**
 * An answer's code on its question's scale, as the analyses read it in SQL (lib/analysis/gather.ts):
 * its 1-based position on the scale, 0 when it is off the scale, -1 when it was not answered.
 */
import { Prisma } from "@/lib/db/client";
import type { Question } from "@/lib/analysis/questions";

/** The code of an answer given as text (a label, or a number's text as JavaScript writes it; NULL when not answered). */
export function textAnswerCode(value: Prisma.Sql, question: Question): Prisma.Sql {
  return Prisma.sql`coalesce(array_position(${question.scale.map(String)}::text[], ${value}), CASE WHEN ${value} IS NULL THEN -1 ELSE 0 END)`;
}

/**
 * The code of a JSON number (a Likert score in a jsonb object): compared as jsonb, which
 * compares numbers by value, so no text is made per answer; anything but a number is not answered.
 */
export function jsonNumberAnswerCode(answer: Prisma.Sql, question: Question): Prisma.Sql {
  const positions = question.scale.map((v, i) => Prisma.sql`WHEN ${JSON.stringify(v)}::jsonb THEN ${Prisma.raw(String(i + 1))}`);
  return Prisma.sql`CASE ${answer} ${Prisma.join(positions, " ")} ELSE CASE WHEN jsonb_typeof(${answer}) = 'number' THEN 0 ELSE -1 END END`;
}
