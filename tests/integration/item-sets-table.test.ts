/**
 * Item sets picked from the study's tables of code changes, reviews and claims, against a real
 * PostgreSQL: the filters (language, system or source, text) keep the rows they say, in study
 * order; the chosen rows, or every row the filter keeps, become a set whose ids are the ones an
 * item file would list (so reports read it as they read a file's); a row the filter does not keep
 * or another study's is refused and nothing is stored; another lead finds no such study.
 */
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { asLead, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

process.env.DATABASE_URL = inject("databaseUrl");
const { db } = await import("@/lib/db/client");
const sets = await import("@/lib/data/item-sets");

let fx: AnnotationFixture;
let other: AnnotationFixture;
const externalIds = (rows: { externalId: string }[]) => rows.map((r) => r.externalId);
const setCount = () => db.itemSet.count({ where: { studyId: fx.studyId } });

beforeAll(async () => {
  fx = await createAnnotationFixture(db, `pick${Date.now()}`);
  other = await createAnnotationFixture(db, `pickother${Date.now()}`);
  await db.codeChange.update({ where: { id: fx.changes[2].id }, data: { language: "java", filePath: "Area.java" } });
});
afterAll(async () => {
  await removeAnnotationFixture(db, fx);
  await removeAnnotationFixture(db, other);
});

test("the tables of code changes, reviews and claims, filtered by language, system or source, and text", async () => {
  const lead = asLead(fx);
  const changes = await sets.memberTable(lead, fx.slug, {});
  expect([changes.filter.table, externalIds(changes.rows), changes.total, changes.languages]).toEqual(["codeChange", ["cc-0", "cc-1", "cc-2"], 3, ["java", "python"]]);
  expect(externalIds((await sets.memberTable(lead, fx.slug, { language: "java" })).rows)).toEqual(["cc-2"]);
  expect(externalIds((await sets.memberTable(lead, fx.slug, { text: "F1.PY" })).rows)).toEqual(["cc-1"]);

  const reviews = await sets.memberTable(lead, fx.slug, { table: "review", system: "system-2" });
  expect(externalIds(reviews.rows)).toEqual(["cc-0/r2", "cc-1/r2", "cc-2/r2"]);
  expect(reviews.systems).toEqual(["human", ...Array.from({ length: 7 }, (_, i) => `system-${i}`)]);
  expect(reviews.rows[1]).toMatchObject({ language: "python", system: "system-2", text: "review 2 of change 1" });
  expect((await sets.memberTable(lead, fx.slug, { table: "review", text: "of change 1" })).total).toBe(7);

  const smells = await sets.memberTable(lead, fx.slug, { table: "claim", system: "pylint" });
  expect([externalIds(smells.rows), smells.systems]).toEqual([["cc-0/smell", "cc-1/smell", "cc-2/smell"], ["model", "pylint"]]);
  expect(externalIds((await sets.memberTable(lead, fx.slug, { table: "claim", language: "java", text: "claim claim-1" })).rows)).toEqual(["cc-2/claim-1"]);

  await expect(sets.memberTable(lead, fx.slug, { table: "pull-request" })).rejects.toMatchObject({ name: "ZodError" });
  await expect(sets.memberTable(asLead(other), fx.slug, {})).rejects.toMatchObject({ status: 404 });
});

test("the rows chosen, or every row the filter keeps, become a set named by the ids an item file would list", async () => {
  const lead = asLead(fx);
  const reviews = await sets.memberTable(lead, fx.slug, { table: "review", system: "system-2" });
  const chosen = await sets.createItemSetFromTable(lead, { slug: fx.slug, name: "system-2 sample", kind: "CUSTOM", filter: reviews.filter, ids: [reviews.rows[2].id, reviews.rows[0].id] });
  expect(chosen).toMatchObject({ name: "system-2 sample", kind: "CUSTOM", size: 2, changes: 2, source: "table of reviews (system system-2): 2 selected" });
  expect((await sets.readItemSet(lead, fx.slug, "system-2 sample")).ids).toEqual(["cc-0/r2", "cc-2/r2"]);

  const everySmell = await sets.createItemSetFromTable(lead, { slug: fx.slug, name: "smells", kind: "HELD_OUT", description: "pylint only", filter: { table: "claim", system: "pylint" }, ids: null });
  expect(everySmell).toMatchObject({ size: 3, kind: "HELD_OUT", description: "pylint only", source: "table of claims (source pylint): every row the filter keeps" });
  expect((await sets.readItemSet(lead, fx.slug, "smells")).ids).toEqual(["cc-0/smell", "cc-1/smell", "cc-2/smell"]);
  const java = await sets.createItemSetFromTable(lead, { slug: fx.slug, name: "java", kind: "CALIBRATION", filter: { table: "codeChange", language: "java" }, ids: null });
  expect([java.size, (await sets.itemSetFilter(lead, fx.slug, "java")).ids]).toEqual([1, ["cc-2"]]);
});

test("a row the filter does not keep, another study's row, a taken name or an empty choice is refused, and nothing is stored", async () => {
  const lead = asLead(fx);
  const before = await setCount();
  const reviews = await sets.memberTable(lead, fx.slug, { table: "review", system: "system-2" });
  const outside = (await sets.memberTable(lead, fx.slug, { table: "review", system: "system-3" })).rows[0].id;
  const theirs = (await sets.memberTable(asLead(other), other.slug, { table: "review" })).rows[0].id;
  const pick = (ids: string[] | null, name = "refused") => sets.createItemSetFromTable(lead, { slug: fx.slug, name, kind: "CUSTOM", filter: reviews.filter, ids });
  await expect(pick([reviews.rows[0].id, outside])).rejects.toMatchObject({ status: 400, message: "1 of the 2 selected rows are not among the study's reviews the filter keeps; filter again and select." });
  await expect(pick([theirs])).rejects.toMatchObject({ status: 400 });
  await expect(pick([])).rejects.toMatchObject({ name: "ZodError" });
  await expect(pick([reviews.rows[0].id], "system-2 sample")).rejects.toMatchObject({ status: 409 });
  await expect(sets.createItemSetFromTable(lead, { slug: fx.slug, name: "none", kind: "CUSTOM", filter: { table: "review", text: "no review says this" }, ids: null })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("The filter keeps no reviews") });
  await expect(sets.createItemSetFromTable(asLead(other), { slug: fx.slug, name: "theirs", kind: "CUSTOM", filter: reviews.filter, ids: null })).rejects.toMatchObject({ status: 404 });
  await expect(sets.createItemSetFromTable({ id: fx.accounts.ann1, role: "ANNOTATOR" }, { slug: fx.slug, name: "mine", kind: "CUSTOM", filter: reviews.filter, ids: null })).rejects.toMatchObject({ status: 404 });
  expect(await setCount()).toBe(before);
});
