import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { cohenKappa, type Rating } from "@/lib/agreement";
import { createClient } from "@/lib/db/client";
import { type ImportFormat, type ImportSummary } from "@/lib/import";
import { runImport } from "@/lib/data/imports";
import { numberOfClaimCode } from "@/lib/import/claim-codes";
import { IMPORT_COUNT_LABELS } from "@/lib/import/count-labels";
import { normalizeWhitespace } from "@/lib/import/text";
import { hasSharedFile, sharedPath } from "../shared-data";
import { countRows, crscoreContext, CRSCORE, imported, sharedFile } from "./import-fixtures";

const STUDY = "crscore-python";

/** The order a lead imports them in: the template, both annotators' phase-1 sheets, both phase-2 sheets. */
const SHEETS: [ImportFormat, string, string][] = [
  ["crscore-phase1", "phase1", "py_claim_acc_annot.csv"],
  ["crscore-phase1", "phase1", "py_claim_acc_annot_marcus.csv"],
  ["crscore-phase1", "phase1", "py_claim_acc_annot_atharva.csv"],
  ["crscore-phase2", "phase2", "py_marcus_review_qual_final.csv"],
  ["crscore-phase2", "phase2", "py_atharva_review_qual_final.csv"],
];

const present = SHEETS.every(([, dir, name]) => hasSharedFile(...CRSCORE, dir, name));

describe.skipIf(!present)("CRScore Python sheets", () => {
  const client = createClient(inject("databaseUrl"));
  const context = present ? crscoreContext() : new Map<string, string>();
  const importSheet = (study: string, [format, dir, name]: [ImportFormat, string, string]) => runImport({ study, format, files: [sharedFile(...CRSCORE, dir, name)], context }, client);
  let summaries: ImportSummary[] = [];
  let studyId = "";

  beforeAll(async () => {
    summaries = [];
    for (const sheet of SHEETS) summaries.push(imported(await importSheet(STUDY, sheet)));
    studyId = summaries[0].study.id;
  });
  afterAll(() => client.$disconnect());

  test("100 code changes with their claims, context files, both annotators' judgements and ratings", async () => {
    expect(summaries[0].counts.codeChanges.created).toBe(100);
    expect(summaries.slice(1).every((s) => s.counts.codeChanges.unchanged === 100 && s.counts.codeChanges.created === 0)).toBe(true);
    const study = await client.study.findUniqueOrThrow({ where: { id: studyId } });
    expect(new Set(study.tasks)).toEqual(new Set(["CLAIM_VERIFICATION", "REVIEW_RATING"]));

    const first = await client.codeChange.findFirstOrThrow({ where: { studyId, externalId: "15764" } });
    expect(first).toMatchObject({ language: "python", position: 0, metadata: { index: 7988 } });
    expect(first.oldFile).toBe(readFileSync(sharedPath(...CRSCORE, "phase1", "context_files", "test7988_old.py"), "utf8"));

    const kinds = await client.pseudoReference.groupBy({ by: ["kind"], where: { codeChange: { studyId } }, _count: true });
    expect(Object.fromEntries(kinds.map((k) => [k.kind, k._count]))).toEqual({ CLAIM: 495, ANNOTATOR_ADDED: 25, SMELL: 1 });

    const judged = await client.claimJudgement.groupBy({ by: ["annotatorId"], where: { pseudoReference: { codeChange: { studyId } }, code: { not: null } }, _count: true });
    const rated = await client.reviewRating.groupBy({ by: ["annotatorId"], where: { review: { codeChange: { studyId } } }, _count: true });
    const names = new Map((await client.account.findMany({ where: { id: { in: judged.map((j) => j.annotatorId) } } })).map((u) => [u.id, u.name]));
    expect(Object.fromEntries(judged.map((j) => [names.get(j.annotatorId), j._count]))).toEqual({ marcus: 357, atharva: 249 });
    expect(Object.fromEntries(rated.map((r) => [names.get(r.annotatorId), r._count]))).toEqual({ marcus: 490, atharva: 490 });
    expect(await client.claimJudgement.count({ where: { pseudoReference: { codeChange: { studyId } }, code: "AMBIGUOUS" } })).toBe(1);
    expect(await client.reviewClaimLink.count({ where: { rating: { review: { codeChange: { studyId } } } } })).toBe(658);
    expect(await client.review.count({ where: { codeChange: { studyId }, isReference: true, system: "msg" } })).toBe(100);
  });

  test("phase-2 pseudo-references are the phase-1 claims: no change lists a text twice", async () => {
    expect(summaries[3].counts.pseudoReferences).toEqual({ created: 1, updated: 0, unchanged: 371 });
    const references = await client.pseudoReference.findMany({ where: { codeChange: { studyId } }, select: { codeChangeId: true, text: true } });
    const keys = new Set(references.map((r) => `${r.codeChangeId}|${normalizeWhitespace(r.text)}`));
    expect(keys.size).toBe(references.length);
  });

  test("claim-accuracy Cohen's kappa of the two annotators on their last 100 common claims is 0.8043", async () => {
    const judgements = await client.claimJudgement.findMany({
      where: { pseudoReference: { codeChange: { studyId }, kind: "CLAIM" }, code: { not: null } },
      select: { code: true, annotator: { select: { name: true } }, pseudoReference: { select: { id: true, position: true, codeChange: { select: { position: true } } } } },
    });
    const byClaim = new Map<string, { order: [number, number]; ratings: Rating[] }>();
    for (const j of judgements) {
      const claim = j.pseudoReference;
      const entry = byClaim.get(claim.id) ?? { order: [claim.codeChange.position, claim.position], ratings: [] };
      entry.ratings.push({ item: claim.id, rater: j.annotator.name, value: numberOfClaimCode(j.code!) });
      byClaim.set(claim.id, entry);
    }
    const common = [...byClaim.values()].filter((c) => c.ratings.length === 2).sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
    const result = cohenKappa(common.slice(-100).flatMap((c) => c.ratings), { raters: ["marcus", "atharva"] });
    expect(result.n).toBe(100);
    expect(result.observedAgreement).toBeCloseTo(0.9, 10);
    expect(result.value).toBeCloseTo(0.8043, 4);
  });

  test("re-importing an annotator's sheet creates nothing", async () => {
    const before = await countRows(client);
    const again = imported(await importSheet(STUDY, SHEETS[4]));
    expect(Object.values(again.counts).reduce((n, c) => n + c.created, 0)).toBe(0);
    expect(again.counts.reviewRatings).toEqual({ created: 0, updated: 0, unchanged: 490 });
    expect({ ...(await countRows(client)), importRun: before.importRun }).toEqual(before);
  });

  test("a phase-2 sheet imported first lines up with the phase-1 sheets, which then need update to set claim order and kinds", async () => {
    const slug = "crscore-phase2-first";
    imported(await importSheet(slug, SHEETS[3]));
    const refused = await importSheet(slug, SHEETS[0]);
    expect(refused.status === "refused" && refused.errors[0].field).toBe("position");
    for (const [format, dir, name] of [SHEETS[0], SHEETS[1]]) imported(await runImport({ study: slug, format, files: [sharedFile(...CRSCORE, dir, name)], context, update: true }, client));
    expect(await client.pseudoReference.count({ where: { codeChange: { study: { slug } }, kind: "ANNOTATOR_ADDED", addedBy: { name: "marcus" } } })).toBe(12);
    const references = await client.pseudoReference.findMany({ where: { codeChange: { study: { slug: "crscore-phase2-first" } } }, select: { codeChangeId: true, text: true } });
    expect(new Set(references.map((r) => `${r.codeChangeId}|${normalizeWhitespace(r.text)}`)).size).toBe(references.length);
  });

  test("a phase-2 sheet without context files warns only about changes the study has no files for", async () => {
    const phase2 = () => sharedFile(...CRSCORE, SHEETS[3][1], SHEETS[3][2]);
    const aboutFiles = (warnings: string[]) => warnings.filter((w) => /old|new file|context/i.test(w));
    // The phase-1 sheets brought the context files: nothing is missing, so nothing is said.
    const after = imported(await runImport({ study: STUDY, format: "crscore-phase2", files: [phase2()] }, client));
    expect(aboutFiles(after.warnings)).toEqual([]);
    // A study with no phase 1: all 100 changes are left without them, and the warning says which.
    const alone = imported(await runImport({ study: "crscore-phase2-no-context", format: "crscore-phase2", files: [phase2()] }, client));
    expect(aboutFiles(alone.warnings)).toEqual([
      expect.stringMatching(/^py_marcus_review_qual_final\.csv: 100 code changes have no old and new file \(15764, .*, and 95 more\): no context files were given and the study has none for them/),
    ]);
    // The result page names what was imported in the product's words, never by table name.
    const words = Object.entries(alone.counts).flatMap(([key, counts]) => (counts.created > 0 ? [IMPORT_COUNT_LABELS[key as keyof typeof IMPORT_COUNT_LABELS]] : []));
    expect(words).toEqual(["code changes", "pseudo-references (claims and smells)", "reviews", "claim judgements", "review ratings", "links between reviews and claims", "history entries"]);
  });
});
