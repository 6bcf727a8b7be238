/** Study fields asked on more than one page (new study, settings, assignments, imports): one rule each. */
import { z } from "zod";
import { TaskType } from "@/lib/generated/prisma/enums";

/** Paths under /studies that are pages, not studies: a study may not take their name as its slug. */
const RESERVED_SLUGS = ["new"];

export const studySlugSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9-]*$/, "a study slug is lowercase letters, digits and dashes, e.g. crscore-python")
  .refine((slug) => !RESERVED_SLUGS.includes(slug), "that slug is the name of a page; choose another");

/** The slug of an existing study in a request: looked up, so any non-empty text (studySlugSchema is the rule for a new one). */
export const slugField = z.string().min(1);

/** A slug suggested from a study's name: "CRScore Python (2024)" → "crscore-python-2024"; "" when the name has no letters or digits. */
export function suggestSlug(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, 100)
    .replace(/-+$/, "");
  return RESERVED_SLUGS.includes(slug) ? `${slug}-study` : slug;
}

export const studyNameField = z.string().trim().min(1, "a study needs a name").max(200);

const unique = (values: readonly string[]) => new Set(values).size === values.length;

export const tasksField = z.array(z.enum(TaskType)).min(1, "choose at least one task").refine(unique, "each task once");

/** Question keys of the other tasks (lib/analysis/questions): a Likert dimension may not take one. */
const RESERVED_KEYS = ["code", "grade", "high-quality"];

export const likertDimensionsField = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .max(40)
      .regex(/^[a-z][a-z0-9-]*$/, "a Likert dimension is lowercase letters, digits and dashes, e.g. relevance")
      .refine((d) => !RESERVED_KEYS.includes(d), "that name belongs to another task's question"),
  )
  .min(1, "at least one Likert dimension")
  .max(10)
  .refine(unique, "each Likert dimension once");

export const likertMinField = z.coerce.number().int().min(0).max(9);
export const likertMaxField = z.coerce.number().int().min(1).max(10);

/** The scale's rule, for `.refine(likertScaleOrdered, LIKERT_SCALE_ORDER)` on an object with both ends. */
export const likertScaleOrdered = (s: { likertMin: number; likertMax: number }) => s.likertMax > s.likertMin;
const scaleEnds = z.object({ likertMin: likertMinField, likertMax: likertMaxField });
export const LIKERT_SCALE_ORDER = {
  message: "the top of the Likert scale must be above its bottom",
  path: ["likertMax"],
  // Checked as soon as both ends are valid, whatever else is wrong, so that a form hears of every problem at once.
  when: (payload: { value: unknown }) => scaleEnds.safeParse(payload.value).success,
};

export const annotatorsPerItemField = z.coerce.number().int().min(1, "at least 1 annotator per item").max(50);
