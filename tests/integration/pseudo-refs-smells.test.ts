/**
 * Static analysis as a study job, on a real database and pg-boss queue with the real analyzers:
 * the SMELL pseudo-references of a JavaScript and a Python change stored with tool, version,
 * rule, file and line; a change in a language without analyzer left out; a run stopped after
 * one change resumed without analyzing it again; the same request once done enqueues nothing;
 * the smells in the stage-1 workspace like imported ones; the CLI's JSON answer.
 */
import { randomUUID } from "node:crypto";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { runImport } from "@/lib/data/imports";
import { createJobContext } from "@/lib/metric-runs";
import { startQueue } from "@/lib/jobs";
import { workPseudoReferenceJobs } from "@/lib/pseudo-refs";
import { drainPseudoReferenceRun, startPseudoReferenceRun } from "@/lib/pseudo-refs";
import { detectAnalyzers } from "@/lib/static-analysis";
import { claimJudgementQueries } from "@/lib/data/claim-judgements";
import { cli } from "./cli";
import { JS_CHANGE, PYTHON_CHANGE } from "../unit/static-analysis/fixtures";

const url = inject("databaseUrl");
const db = createClient(url);
let boss: PgBoss;
let ready = false;
const created: string[] = [];

async function importStudy(): Promise<{ id: string; slug: string }> {
  const slug = `smells-${randomUUID().slice(0, 8)}`;
  const lines = [
    { id: "js", ...JS_CHANGE },
    { id: "py", ...PYTHON_CHANGE },
    { id: "go", language: "go", filePath: "main.go", diff: "@@ -1 +1 @@\n-a\n+b\n", oldFile: "a\n", newFile: "b\n" },
  ].map((c) => JSON.stringify({ id: c.id, language: c.language, filePath: c.filePath, diff: c.diff, oldFile: c.oldFile, newFile: c.newFile, pseudoReferences: [{ id: "c1", kind: "CLAIM", source: "gpt", text: "A claim.", position: 0 }], reviews: [{ id: "r", system: "s", text: "ok", position: 0 }] }));
  const result = await runImport({ study: slug, format: "jsonl", files: [{ name: "smells.jsonl", content: Buffer.from(`${lines.join("\n")}\n`) }] }, db);
  if (result.status !== "imported") throw new Error(`import refused: ${JSON.stringify(result)}`);
  created.push(result.summary.study.id);
  return { id: result.summary.study.id, slug };
}

beforeAll(async () => {
  const missing = (await detectAnalyzers(["javascript", "python"])).flatMap((s) => (s.available ? [] : [s.message]));
  if (missing.length > 0) {
    if (process.env.CI === "true") throw new Error(missing.join(" "));
    console.warn(`[skip] ${missing.join(" ")}`);
    return;
  }
  ready = true;
  boss = await startQueue(url, { supervise: false });
});

afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true });
  await db.study.deleteMany({ where: { id: { in: created } } });
  await db.$disconnect();
});

describe("static analysis as a study job", () => {
  test("smells stored with provenance, a stopped run resumed, a finished one not redone, shown in stage 1", async () => {
    if (!ready) return;
    const study = await importStudy();
    const context = createJobContext();
    const first = await startPseudoReferenceRun(context, boss, study.id, "smells");
    expect(first).toMatchObject({ resumed: false, enqueued: 2, run: { total: 2, done: 0, status: "QUEUED" } });
    expect(first.run.signature).toMatch(/^smells\|jshint=[\d.]+\|pylint=[\d.]+\|radon=[\d.]+\|pyscent=.+\|near=3\|settings=\w+$/);

    const stopped = await drainPseudoReferenceRun(boss, context, first.run.id, { maxJobs: 1 });
    expect(stopped).toMatchObject({ done: 1, status: "RUNNING" });
    const firstItem = await db.pseudoReferenceRunItem.findFirstOrThrow({ where: { runId: first.run.id } });

    const again = await startPseudoReferenceRun(context, boss, study.id, "smells");
    expect(again).toMatchObject({ resumed: true, enqueued: 1, run: { id: first.run.id, done: 1 } });
    const finished = await drainPseudoReferenceRun(boss, context, first.run.id);
    expect(finished).toMatchObject({ status: "DONE", done: 2, total: 2 });
    // The change done before the stop kept its item: it was not analyzed twice.
    expect((await db.pseudoReferenceRunItem.findFirstOrThrow({ where: { runId: first.run.id, codeChangeId: firstItem.codeChangeId } })).finishedAt).toEqual(firstItem.finishedAt);

    const smells = await db.pseudoReference.findMany({ where: { codeChange: { studyId: study.id }, kind: "SMELL" }, include: { codeChange: { select: { externalId: true } } }, orderBy: [{ codeChange: { externalId: "asc" } }, { position: "asc" }] });
    const js = smells.filter((s) => s.codeChange.externalId === "js");
    expect(js.map((s) => s.text)).toEqual(["Missing semicolon at line 6: `var y = x * 2`.", "Missing semicolon at line 7: `return y == 4`."]);
    expect(js[0]).toMatchObject({ source: expect.stringMatching(/^JSHint \d/), position: 1 });
    expect(js[0].metadata).toMatchObject({ tool: "jshint", ruleId: "W033", file: "src/sum.js", line: 6, introduced: true, runId: first.run.id, signature: first.run.signature });
    const py = smells.filter((s) => s.codeChange.externalId === "py").map((s) => s.metadata as { tool: string; ruleId: string; line: number; smellType: string });
    expect(py).toContainEqual(expect.objectContaining({ tool: "pylint", ruleId: "R0913 too-many-arguments", line: 9, smellType: "Long parameter list" }));
    expect(py).toContainEqual(expect.objectContaining({ tool: "radon", ruleId: "cc-rank-C", line: 19, smellType: "Code complexity" }));
    expect(py).toContainEqual(expect.objectContaining({ tool: "pyscent", ruleId: "long-lambda", line: 11 }));
    expect(smells.some((s) => s.codeChange.externalId === "go")).toBe(false);
    const pyItem = await db.pseudoReferenceRunItem.findFirstOrThrow({ where: { runId: first.run.id, codeChange: { externalId: "py" } } });
    expect(pyItem.detail).toMatchObject({ language: "python", radonRanks: { A: 2, C: 1 } });
    expect(pyItem.created).toBe(py.length);

    const done = await startPseudoReferenceRun(context, boss, study.id, "smells");
    expect(done).toMatchObject({ resumed: true, enqueued: 0, run: { status: "DONE", done: 2 } });
    expect(await db.pseudoReference.count({ where: { codeChange: { studyId: study.id }, kind: "SMELL" } })).toBe(smells.length);

    const jsChange = await db.codeChange.findFirstOrThrow({ where: { studyId: study.id, externalId: "js" } });
    const workspace = (await claimJudgementQueries.readWorkspace({ client: db, accountId: "nobody", codeChangeId: jsChange.id, study: { hideSystemNames: false }, reviewSeed: 1 } as never)) as { claimVerification: { smells: { text: string }[]; references: { text: string }[] } };
    expect(workspace.claimVerification.smells.map((s) => s.text)).toEqual(js.map((s) => s.text));
    expect(workspace.claimVerification.references.map((r) => r.text)).toEqual(["A claim."]);
  }, 240_000);

  test("the worker takes a run's jobs as one chunk and completes each job", async () => {
    if (!ready) return;
    const study = await importStudy();
    const context = createJobContext();
    const { run } = await startPseudoReferenceRun(context, boss, study.id, "smells");
    const worker = await startQueue(url, { supervise: false });
    try {
      await workPseudoReferenceJobs(worker, { context });
      for (let waited = 0; (await db.pseudoReferenceRun.findUniqueOrThrow({ where: { id: run.id } })).status !== "DONE"; waited += 250) {
        if (waited > 200_000) throw new Error("the worker did not finish the run");
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      await worker.stop({ graceful: true, wait: true });
    }
    const items = await db.pseudoReferenceRunItem.findMany({ where: { runId: run.id }, select: { detail: true } });
    expect(items).toHaveLength(2);
    const jobs = await db.$queryRaw<{ state: string; output: { stored: number } }[]>`SELECT state::text, output FROM pgboss.job WHERE data->>'runId' = ${run.id}`;
    expect(jobs.map((j) => j.state)).toEqual(["completed", "completed"]);
    expect(jobs.map((j) => j.output.stored).reduce((a, b) => a + b)).toBe(await db.pseudoReference.count({ where: { codeChange: { studyId: study.id }, kind: "SMELL" } }));
  }, 240_000);

  test("the CLI runs (or resumes) a study's smells and answers with the run", async () => {
    if (!ready) return;
    const study = await importStudy();
    const result = await cli("pseudo-refs", "--study", study.slug, "--source", "smells");
    expect(result.stderr).toContain("pseudo-refs smells: 2/2 code changes");
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as { runs: { source: string; status: string; total: number; pseudoReferences: number }[]; table14: { title: string; rows: { language: string; smellType: string; count: number }[] }; table6: { rows: { rank: string; blocks: number }[] } };
    // CRScore Table 14 (smell types per language) and Table 6 (radon ranks of the Python blocks).
    expect(answer.table14.title).toMatch(/^CRScore Table 14: /);
    expect(answer.table14.rows).toEqual(expect.arrayContaining([{ language: "javascript", smellType: "W033", count: 2 }, { language: "python", smellType: "Long parameter list", count: 1 }, { language: "python", smellType: "Code complexity", count: 1 }, { language: "python", smellType: "Long lambda", count: 1 }]));
    expect(answer.table6.rows.map((r) => [r.rank, r.blocks])).toEqual([["A", 2], ["B", 0], ["C", 1], ["D", 0], ["E", 0], ["F", 0]]);
    expect(answer.runs).toEqual([expect.objectContaining({ source: "smells", status: "DONE", total: 2, pseudoReferences: await db.pseudoReference.count({ where: { codeChange: { studyId: study.id }, kind: "SMELL" } }) })]);
    const wrong = await cli("pseudo-refs", "--study", study.slug, "--source", "lint");
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("--source must be one of");
  }, 240_000);
});
