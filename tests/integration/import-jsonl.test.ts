import { afterAll, describe, expect, inject, test } from "vitest";
import { createClient, type PrismaClient } from "@/lib/db/client";
import { type ImportRequest } from "@/lib/import";
import { runImport } from "@/lib/data/imports";
import { hasSharedFile } from "../shared-data";
import { countRows, crscoreContext, CRSCORE, exportText, fileAt, imported, sharedFile } from "./import-fixtures";

const EXAMPLE = "docs/examples/code-changes.jsonl";

/** Keys and JSON types of a value, nested; null is compatible with any type (a nullable column). */
function shape(value: unknown): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? ["empty"] : [shape(value[0])];
  if (typeof value === "object") return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shape(v)]));
  return typeof value;
}

/** Merges the shapes of all lines; throws when two lines disagree on keys or types. */
function commonShape(a: unknown, b: unknown, path = "$"): unknown {
  if (a === "null" || a === undefined) return b;
  if (b === "null") return a;
  if (Array.isArray(a) && Array.isArray(b)) return a[0] === "empty" ? b : b[0] === "empty" ? a : [commonShape(a[0], b[0], `${path}[]`)];
  if (typeof a === "object" && typeof b === "object" && a && b) {
    const keys = Object.keys(a);
    if (keys.join() !== Object.keys(b).join()) throw new Error(`${path}: keys ${keys.join()} vs ${Object.keys(b).join()}`);
    return Object.fromEntries(keys.map((k) => [k, commonShape((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`)]));
  }
  if (a !== b) throw new Error(`${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  return a;
}

type Source = Pick<ImportRequest, "format" | "files" | "context">;

/** Imports the sources into a study, exports it as jsonl, imports that into an empty study and exports again. */
async function roundTrip(client: PrismaClient, slug: string, sources: Source[]) {
  let studyId = "";
  for (const source of sources) studyId = imported(await runImport({ study: slug, ...source }, client)).study.id;
  const exported = await exportText(client, studyId, "jsonl");
  const copy = imported(await runImport({ study: `${slug}-copy`, format: "jsonl", files: [{ name: `${slug}.jsonl`, content: Buffer.from(exported) }] }, client));
  return { exported, copy, reexported: await exportText(client, copy.study.id, "jsonl") };
}

describe("jsonl import and export", () => {
  const client = createClient(inject("databaseUrl"));
  afterAll(() => client.$disconnect());

  test("the documented example imports every kind of data", async () => {
    const summary = imported(await runImport({ study: "jsonl-example", format: "jsonl", files: [fileAt(EXAMPLE)] }, client));
    expect(summary.counts).toMatchObject({
      pullRequests: { created: 1 },
      codeChanges: { created: 4 },
      pseudoReferences: { created: 6 },
      reviews: { created: 7 },
      claimJudgements: { created: 5 },
      reviewRatings: { created: 3 },
      reviewClaimLinks: { created: 4 },
      referenceGrades: { created: 4 },
      commentFilteringLabels: { created: 4 },
      annotationHistory: { created: 17 },
    });
    expect(new Set(summary.study.enabledTasks)).toEqual(new Set(["CLAIM_VERIFICATION", "REVIEW_RATING", "REFERENCE_GRADING", "COMMENT_FILTERING"]));
    const judgement = await client.claimJudgement.findFirstOrThrow({ where: { annotator: { name: "grace" }, pseudoReference: { externalId: "c1", codeChange: { externalId: "py-retry-1", studyId: summary.study.id } } } });
    expect([judgement.code, judgement.timeSpentMs, judgement.createdAt.toISOString()]).toEqual(["CORRECT", 3900, "2025-03-01T11:00:00.000Z"]);
    const correction = await client.pseudoReference.findFirstOrThrow({ where: { externalId: "a1", codeChange: { studyId: summary.study.id } }, include: { corrects: true, addedBy: true } });
    expect([correction.corrects?.externalId, correction.addedBy?.name, correction.addedBy?.active]).toEqual(["c2", "grace", false]);
    const members = await client.studyMember.findMany({ where: { studyId: summary.study.id }, include: { account: true } });
    expect(members.map((m) => m.account.name).sort()).toEqual(["ada", "grace"]);
  });

  test("round trip: the export imported into an empty study gives identical content", async () => {
    const { exported, copy, reexported } = await roundTrip(client, "jsonl-roundtrip", [{ format: "jsonl", files: [fileAt(EXAMPLE)] }]);
    expect(copy.counts.codeChanges.created).toBe(4);
    expect(reexported).toBe(exported);
  });

  test("re-importing an export into its own study changes nothing", async () => {
    const study = await client.study.findUniqueOrThrow({ where: { slug: "jsonl-example" } });
    const before = await countRows(client);
    const summary = imported(await runImport({ study: "jsonl-example", format: "jsonl", files: [{ name: "again.jsonl", content: Buffer.from(await exportText(client, study.id, "jsonl")) }] }, client));
    expect(Object.values(summary.counts).every((c) => ("updated" in c ? c.created === 0 && c.updated === 0 : c.created === 0))).toBe(true);
    expect({ ...(await countRows(client)), importRun: before.importRun }).toEqual(before);
  });

  test("every exported line has the same keys and types (loadable by Hugging Face datasets)", async () => {
    const study = await client.study.findUniqueOrThrow({ where: { slug: "jsonl-example" } });
    const lines = (await exportText(client, study.id, "jsonl")).trimEnd().split("\n").map((l) => JSON.parse(l) as unknown);
    expect(() => lines.map(shape).reduce((a, b) => commonShape(a, b))).not.toThrow();
  });

  const crscore = ["py_claim_acc_annot_marcus.csv", "py_claim_acc_annot_atharva.csv"].every((n) => hasSharedFile(...CRSCORE, "phase1", n)) && hasSharedFile(...CRSCORE, "phase2", "py_marcus_review_qual_final.csv");

  test.skipIf(!crscore)("round trip of a CRScore study: claims, corrections, judgements, necessity, ratings and links", async () => {
    const context = crscoreContext();
    const phase1 = (name: string): Source => ({ format: "crscore-phase1", files: [sharedFile(...CRSCORE, "phase1", name)], context });
    const { exported, copy, reexported } = await roundTrip(client, "crscore-roundtrip", [
      phase1("py_claim_acc_annot_marcus.csv"),
      phase1("py_claim_acc_annot_atharva.csv"),
      { format: "crscore-phase2", files: [sharedFile(...CRSCORE, "phase2", "py_marcus_review_qual_final.csv")] },
    ]);
    expect(copy.counts).toMatchObject({ codeChanges: { created: 100 }, pseudoReferences: { created: 521 }, reviewRatings: { created: 490 } });
    expect(reexported).toBe(exported);
  });
});
