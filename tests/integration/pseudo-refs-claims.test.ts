/**
 * LLM claim generation as a study job against a chat-completions server on loopback: CLAIM and
 * IMPLICATION pseudo-references stored with the reported model, prompt version and parameters; usage
 * and estimated cost per change; a truncated answer asked again; a malformed one refused rather
 * than mined; a second run on the same changes answered from the PostgreSQL cache with zero
 * requests; the study's own prompt in the request and the signature; a budget that stops the run;
 * the claims in stage 1 for verification.
 */
import { randomUUID } from "node:crypto";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { runImport } from "@/lib/data/imports";
import { createJobContext } from "@/lib/metric-runs";
import { startQueue } from "@/lib/jobs";
import { listPseudoReferenceRuns } from "@/lib/data/pseudo-references";
import { DEFAULT_CLAIM_PROMPT, drainPseudoReferenceRun, promptVersion, startPseudoReferenceRun } from "@/lib/pseudo-refs";
import { claimJudgementQueries } from "@/lib/data/claim-judgements";
import { startFakeLlm, userText, type FakeLlm, type ReceivedRequest, type Reply } from "../unit/judges/fake-llm";

const url = inject("databaseUrl");
const db = createClient(url);
let boss: PgBoss;
let fake: FakeLlm;
const created: string[] = [];

const GOOD = "CHANGES:\n- A parameter path is added to load.\n- The call passes path to open.\nIMPLICATIONS:\n- Callers can now choose which file is loaded.";

/** Changes by their diff's marker: "ok" answers well, "cut" is truncated once, "bad" never answers in the format. */
function answer(request: ReceivedRequest): Reply {
  const text = userText(request);
  if (text.includes("MARK-bad")) return { content: "The change adds 2 lines; I rate it 4." };
  if (text.includes("MARK-cut") && request.maxTokens === 64) return { content: "CHANGES:\n- A param", finishReason: "length" };
  return { content: GOOD, usage: { prompt_tokens: 200, completion_tokens: 40 } };
}

async function importStudy(markers: string[]): Promise<{ id: string; slug: string }> {
  const slug = `claims-${randomUUID().slice(0, 8)}`;
  const lines = markers.map((m) => JSON.stringify({ id: m, language: "python", filePath: `${m}.py`, diff: `@@ -1 +1 @@\n-x = load()  # MARK-${m}\n+x = load(path)  # MARK-${m}\n`, reviews: [{ id: "r", system: "s", text: "ok", position: 0 }] }));
  const result = await runImport({ study: slug, format: "jsonl", files: [{ name: "claims.jsonl", content: Buffer.from(`${lines.join("\n")}\n`) }] }, db);
  if (result.status !== "imported") throw new Error(`import refused: ${JSON.stringify(result)}`);
  created.push(result.summary.study.id);
  return { id: result.summary.study.id, slug };
}

beforeAll(async () => {
  boss = await startQueue(url, { supervise: false });
  fake = await startFakeLlm();
});
beforeEach(() => {
  fake.reset();
  fake.handle(answer);
});
afterAll(async () => {
  await boss.stop({ graceful: false, wait: true });
  await fake.close();
  await db.study.deleteMany({ where: { id: { in: created } } });
  await db.$disconnect();
});

const options = (extra: Record<string, unknown> = {}) => ({ url: fake.url, model: "gpt-4o-mini", temperature: 0.2, seed: 11, maxTokens: 64, ...extra });
const context = () => createJobContext({ env: {} });

async function generate(studyId: string, extra: Record<string, unknown> = {}) {
  const ctx = context();
  const started = await startPseudoReferenceRun(ctx, boss, studyId, "claims", options(extra));
  return drainPseudoReferenceRun(boss, ctx, started.run.id);
}

describe("LLM claim generation", () => {
  test("claims and implications with model, prompt version and parameters; truncated re-asked; malformed refused; a second run asks nothing", async () => {
    const study = await importStudy(["ok", "cut", "bad"]);
    const run = await generate(study.id);
    expect(run).toMatchObject({ status: "DONE", done: 3, total: 3 });
    const hash = promptVersion(DEFAULT_CLAIM_PROMPT);
    expect(run.signature).toBe(`claims|model:gpt-4o-mini|url:${fake.url}|prompt:${hash.slice(0, 16)}|temp:0.2|seed:11|max:64|attempts:3`);
    expect(fake.requests.every((r) => r.temperature === 0.2 && r.seed === 11 && r.model === "gpt-4o-mini")).toBe(true);
    // ok: 1 request; cut: truncated at 64, asked again at 128; bad: asked 3 times, then refused.
    const per = (m: string) => fake.requests.filter((r) => userText(r).includes(`MARK-${m}`));
    expect(per("ok")).toHaveLength(1);
    expect(per("cut").map((r) => r.maxTokens)).toEqual([64, 128]);
    expect(per("bad")).toHaveLength(3);

    const refs = await db.pseudoReference.findMany({ where: { codeChange: { studyId: study.id } }, include: { codeChange: { select: { externalId: true } } }, orderBy: [{ codeChange: { externalId: "asc" } }, { position: "asc" }] });
    const ok = refs.filter((r) => r.codeChange.externalId === "ok");
    expect(ok.map((r) => [r.kind, r.text])).toEqual([
      ["CLAIM", "A parameter path is added to load."],
      ["CLAIM", "The call passes path to open."],
      ["IMPLICATION", "Callers can now choose which file is loaded."],
    ]);
    expect(ok[0]).toMatchObject({ source: "gpt-4o-mini-served" });
    expect(ok[0].metadata).toMatchObject({ model: "gpt-4o-mini-served", requestedModel: "gpt-4o-mini", promptVersion: hash, temperature: 0.2, seed: 11, maxTokens: 64, level: "low-level change", signature: run.signature });
    expect(refs.filter((r) => r.codeChange.externalId === "cut")).toHaveLength(3);
    expect(refs.filter((r) => r.codeChange.externalId === "bad")).toHaveLength(0);

    const items = await db.pseudoReferenceRunItem.findMany({ where: { runId: run.id }, include: { codeChange: { select: { externalId: true } } } });
    const detail = (m: string) => items.find((i) => i.codeChange.externalId === m)!.detail as Record<string, unknown>;
    expect(detail("ok")).toMatchObject({ model: "gpt-4o-mini-served", requests: 1, cached: false, usage: { promptTokens: 200, completionTokens: 40 } });
    expect(detail("ok").costUsd).toBeCloseTo((200 * 0.15 + 40 * 0.6) / 1e6, 12);
    expect(detail("cut")).toMatchObject({ requests: 2 });
    expect(detail("bad")).toMatchObject({ requests: 3, refused: expect.stringContaining("malformed claims") });
    const [summary] = (await listPseudoReferenceRuns(study.id, db)).filter((r) => r.id === run.id);
    expect(summary).toMatchObject({ created: 6, llm: { requests: 6, refusedChanges: 1, cachedChanges: 0, models: ["gpt-4o-mini-served"] } });
    expect(await db.llmResponse.count({ where: { promptVersion: hash } })).toBeGreaterThanOrEqual(5);

    // The same changes in another study: every answer from the cache, zero requests, same claims.
    fake.reset();
    fake.handle(answer);
    const twin = await importStudy(["ok", "cut"]);
    const again = await generate(twin.id);
    expect(again).toMatchObject({ status: "DONE", done: 2 });
    expect(fake.requests).toHaveLength(0);
    expect(await db.pseudoReference.count({ where: { codeChange: { studyId: twin.id } } })).toBe(6);
    const [twinSummary] = await listPseudoReferenceRuns(twin.id, db);
    expect(twinSummary.llm).toMatchObject({ requests: 0, cachedChanges: 2 });

    // Stage 1: the generated claims are there to verify, like imported ones.
    const change = await db.codeChange.findFirstOrThrow({ where: { studyId: study.id, externalId: "ok" } });
    const workspace = (await claimJudgementQueries.readWorkspace({ client: db, accountId: "nobody", codeChangeId: change.id, study: { hideSystemNames: false }, reviewSeed: 1 } as never)) as { claimVerification: { references: { kind: string; text: string }[] } };
    expect(workspace.claimVerification.references.map((r) => r.kind)).toEqual(["CLAIM", "CLAIM", "IMPLICATION"]);
  }, 120_000);

  test("the study's own prompt is sent and hashed into the signature; a prompt without {{diff}} is refused", async () => {
    const study = await importStudy(["ok"]);
    const own = "List what changed in {{file_path}}.\n{{diff}}\nAnswer with CHANGES: and IMPLICATIONS: lists.";
    await db.study.update({ where: { id: study.id }, data: { claimPrompt: own } });
    const run = await generate(study.id);
    expect(run.signature).toContain(`prompt:${promptVersion(own).slice(0, 16)}`);
    expect(userText(fake.requests[0])).toMatch(/^List what changed in ok\.py\.\n@@ -1 \+1 @@/);
    await db.study.update({ where: { id: study.id }, data: { claimPrompt: "No diff here." } });
    await expect(startPseudoReferenceRun(context(), boss, study.id, "claims", options())).rejects.toThrow("must contain {{diff}}");
  });

  test("a budget stops the run with what was spent", async () => {
    const study = await importStudy(["b1", "b2", "b3"]);
    fake.handle((r) => ({ content: GOOD.replace("path", `path ${userText(r).length}`), usage: { prompt_tokens: 300, completion_tokens: 30 } }));
    const run = await generate(study.id, { budgetTokens: 500, model: "budget-model" });
    expect(run.status).toBe("FAILED");
    expect(run.error).toMatch(/LLM budget of 500 tokens reached \(660 spent in 2 requests\)/);
    expect(fake.requests).toHaveLength(2);
  });

  test("without an endpoint the run is refused with the configuration message", async () => {
    const study = await importStudy(["ok"]);
    await expect(startPseudoReferenceRun(context(), boss, study.id, "claims", {})).rejects.toThrow("set LLM_URL");
  });
});
