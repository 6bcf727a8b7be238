/**
 * A lead's new study, no import needed, against a real PostgreSQL: created with its name, slug,
 * task types, Likert scale and annotators per item, owned by its creator and led by them (not by
 * another lead); bad fields are refused naming the field and why, a slug another study has is a
 * conflict, an annotator is refused, and a refusal writes nothing.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { toAppError } from "@/lib/errors";
import { suggestSlug } from "@/lib/validation/study-fields";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const { createStudy } = await import("@/lib/data/studies");
const { findLedStudy } = await import("@/lib/data/study-access");
const { listStudiesWithCounts } = await import("@/lib/data/study-overview");

const tag = `ns${Date.now()}`;
const people: Record<"lead" | "otherLead" | "annotator", { id: string; role: "LEAD" | "ANNOTATOR" }> = {} as never;
/** The form's fields, with changes (some invalid on purpose: the data layer validates what it is given). */
const fields = (over: object = {}) => ({ name: `Calibration ${tag}`, slug: `calibration-${tag}`, tasks: ["REVIEW_RATING", "REFERENCE_GRADING"], likertDimensions: ["relevance", "clarity"], likertMin: 0, likertMax: 4, annotatorsPerItem: 3, ...over }) as Parameters<typeof createStudy>[1];
const refusal = async (promise: Promise<unknown>) => toAppError(await promise.then(() => null, (e: unknown) => e));
const studies = () => db.study.count({ where: { slug: { contains: tag } } });

beforeAll(async () => {
  // Stored as annotators (the integration database is shared and other tests expect no lead
  // account); the data layer takes the role as given.
  for (const [key, role] of [["lead", "LEAD"], ["otherLead", "LEAD"], ["annotator", "ANNOTATOR"]] as const) {
    const account = await db.account.create({ data: { email: `${key}-${tag}@test.local`, name: key, role: "ANNOTATOR" } });
    people[key] = { id: account.id, role };
  }
});
afterAll(async () => {
  await db.study.deleteMany({ where: { slug: { contains: tag } } });
  await db.account.deleteMany({ where: { email: { contains: tag } } });
});

test("a lead creates an empty study with its name, slug, task types, scale and annotators per item, and leads it", async () => {
  expect(await createStudy(people.lead, fields())).toEqual({ slug: `calibration-${tag}`, name: `Calibration ${tag}` });
  const study = await db.study.findUniqueOrThrow({ where: { slug: `calibration-${tag}` } });
  expect(study).toMatchObject({ name: `Calibration ${tag}`, tasks: ["REVIEW_RATING", "REFERENCE_GRADING"], likertDimensions: ["relevance", "clarity"], likertMin: 0, likertMax: 4, annotatorsPerItem: 3, ownerId: people.lead.id });
  expect(await findLedStudy(people.lead, study.slug)).not.toBeNull();
  expect(await findLedStudy(people.otherLead, study.slug)).toBeNull();
  expect((await listStudiesWithCounts(people.lead)).map((s) => s.name)).toContain(`Calibration ${tag}`);
  expect(await db.codeChange.count({ where: { studyId: study.id } })).toBe(0);
});

test("bad fields, a taken slug and an annotator are refused with the reason, and nothing is written", async () => {
  const before = await studies();
  const invalid = [
    [{ slug: "Calibration Study" }, /slug: a study slug is lowercase letters, digits and dashes/],
    [{ slug: "new" }, /slug: that slug is the name of a page/],
    [{ name: "  " }, /name: a study needs a name/],
    [{ tasks: [] }, /tasks: choose at least one task/],
    [{ tasks: ["REVIEW_RATING", "SUMMARISING"] }, /tasks/],
    [{ likertDimensions: ["grade"] }, /likertDimensions.*belongs to another task's question/],
    [{ likertMin: 3, likertMax: 3 }, /likertMax: the top of the Likert scale must be above its bottom/],
    [{ annotatorsPerItem: 0 }, /annotatorsPerItem: at least 1 annotator per item/],
  ] as const;
  for (const [change, reason] of invalid) {
    const error = await refusal(createStudy(people.lead, fields({ ...change, slug: "slug" in change ? change.slug : `other-${tag}` })));
    expect([error.status, error.userMessage], JSON.stringify(change)).toEqual([400, expect.stringMatching(reason)]);
  }
  // the slug of a study led by someone else is taken all the same (slugs name studies everywhere)
  const taken = await refusal(createStudy(people.otherLead, fields({ name: "Another" })));
  expect([taken.status, taken.userMessage]).toEqual([409, `The slug "calibration-${tag}" is taken by another study: choose another.`]);
  const annotator = await refusal(createStudy(people.annotator, fields({ slug: `annotators-${tag}` })));
  expect(annotator.status).toBe(403);
  expect(await studies()).toBe(before);
});

test("the slug suggested from a name is one the form accepts", () => {
  expect(suggestSlug("CRScore Python (2024)")).toBe("crscore-python-2024");
  expect(suggestSlug("  Évaluation des revues — lot 1 ")).toBe("evaluation-des-revues-lot-1");
  expect(suggestSlug("New")).toBe("new-study");
  expect(suggestSlug("!!!")).toBe("");
  expect(suggestSlug("x".repeat(150))).toHaveLength(100);
});
