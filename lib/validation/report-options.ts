/**
 * The options of the agreement and validity reports, one rule each: the JSON routes parse their
 * query with these schemas, the dashboards their search parameters (leniently: a bad value is
 * left out), and the CLI each flag with its field (reportFlag names the flag in the error).
 */
import { z } from "zod";
import { TaskType } from "@/lib/generated/prisma/enums";

const whole = z.coerce.number().int().min(0);

/** A task type, as `REVIEW_RATING` or `review-rating`. */
export const taskField = z.preprocess((v) => (typeof v === "string" ? v.trim().toUpperCase().replace(/-/g, "_") : v), z.enum(TaskType));
/** Windows of the agreement report (agreement over time): this many items each, in assignment order. */
export const windowSizeField = whole.min(1).max(100_000);
/** Bootstrap resamples of the CIs; 0 answers with point estimates only. */
export const resamplesField = whole.max(100_000);
export const seedField = whole;
/** A stored item set of the study, by name. */
export const itemSetField = z.string().min(1).max(100);
/** `gold=include` (gold items too; left out by default) and `drafts=include` (ratings of unsubmitted work too; only submitted work by default). */
export const includeField = z.literal("include");
/** The validity report's level: per review, or per system (its reviews' means). */
export const correlationLevelField = z.enum(["review", "system"]);

const bootstrapFields = { resamples: resamplesField.optional(), seed: seedField.optional() };

/** The agreement route's query. */
export const agreementQuerySchema = z.object({
  task: taskField.optional(),
  windowSize: windowSizeField.optional(),
  itemSet: itemSetField.optional(),
  ...bootstrapFields,
  gold: includeField.optional(),
  drafts: includeField.optional(),
});

/** The agreement dashboard's search parameters: the route's, a bad value left out; the item set is `set`. */
export const agreementPageQuerySchema = z.object({
  task: taskField.optional().catch(undefined),
  windowSize: windowSizeField.optional().catch(undefined),
  gold: includeField.optional().catch(undefined),
  drafts: includeField.optional().catch(undefined),
  set: itemSetField.optional().catch(undefined),
});

/** The validity route's query. */
export const validityQuerySchema = z.object({
  metric: z.string().min(1),
  human: z.string().min(1),
  level: correlationLevelField.optional(),
  params: z.string().min(1).optional(),
  includeReferences: z.enum(["0", "1", "true", "false"]).optional(),
  ...bootstrapFields,
  itemSet: itemSetField.optional(),
  drafts: includeField.optional(),
});

/** A search parameter given once; the first when repeated. */
const single = <T extends z.ZodType>(field: T) => z.preprocess((v) => (Array.isArray(v) ? v[0] : v), field.optional());

/** The validity dashboard's search parameters: as the route's, each optional (the page picks defaults); the item set is `set`. */
export const validityPageQuerySchema = z.object({
  metric: single(z.string().min(1)),
  human: single(z.string().min(1)),
  params: single(z.string().min(1)),
  level: correlationLevelField.optional().catch(undefined),
  includeReferences: z.preprocess((v) => v === "1" || v === "on" || v === "true", z.boolean()),
  set: single(itemSetField).catch(undefined),
  drafts: z.preprocess((v) => v === "include", z.boolean()),
});

/** The reports' `bootstrap` option from resamples and seed; absent when neither is given (the defaults apply). */
export function bootstrapOption(query: { resamples?: number; seed?: number }): { bootstrap?: { nResamples?: number; seed?: number } } {
  const bootstrap = { ...(query.resamples === undefined ? {} : { nResamples: query.resamples }), ...(query.seed === undefined ? {} : { seed: query.seed }) };
  return Object.keys(bootstrap).length > 0 ? { bootstrap } : {};
}
