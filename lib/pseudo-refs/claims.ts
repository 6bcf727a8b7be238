/**
 * LLM claim generation (CRScore §3.2) through the configured OpenAI-compatible endpoint: each
 * code change's low-level changes become CLAIM and its high-level implications IMPLICATION
 * pseudo-references, with the model the server reported, the prompt version and the parameters.
 * Requests go through the reproducible client (response cache, usage and cost, budget, seed).
 */
import { AppError } from "@/lib/errors";
import { studyClaimPrompt } from "@/lib/data/claim-prompt";
import { llmResponseCache } from "@/lib/data/llm-responses";
import { runItemDetails, studyCodeChanges } from "@/lib/data/pseudo-references";
import { askParsed, createBudget, createChatClient, type ChatClient, type LlmBudget } from "@/lib/judges";
import type { MetricJobContext } from "@/lib/metric-runs/context";
import { apiKeyFor, planLlm } from "@/lib/metric-runs/judges";
import { claimPromptOf, claimPromptProblem, fillClaimPrompt, parseClaims, promptVersion } from "./claim-prompt";
import type { ChangeToGenerate, Generated, GeneratedReference, PseudoReferenceSource } from "./types";

export interface ClaimRunOptions {
  url?: string;
  model?: string;
  apiKey?: string;
  /** Default 0. */
  temperature?: number;
  seed?: number;
  /** max_tokens of each request. Default 1024. */
  maxTokens?: number;
  /** Stops the run once reached. */
  budgetUsd?: number;
  budgetTokens?: number;
  /** Requests per change until the answer is in the prompt's format. Default 3. */
  attempts?: number;
}

interface ClaimParams {
  llm: { url: string; model: string };
  prompt: string;
  promptVersion: string;
  temperature: number;
  seed: number | null;
  maxTokens: number;
  attempts: number;
  budget: { usd: number | null; tokens: number | null };
}

/** Per process: a run's client (one concurrency limit, one budget across its jobs). */
const runClients = new WeakMap<MetricJobContext, Map<string, Promise<{ client: ChatClient; budget: LlmBudget }>>>();

async function runClient(context: MetricJobContext, runId: string, params: ClaimParams): Promise<{ client: ChatClient; budget: LlmBudget }> {
  let clients = runClients.get(context);
  if (!clients) runClients.set(context, (clients = new Map()));
  let entry = clients.get(runId);
  if (!entry) {
    entry = (async () => {
      const budget = createBudget(params.budget);
      // What the run's earlier jobs (in any process) spent counts against its budget.
      for (const detail of await runItemDetails(runId)) {
        const d = detail as { costUsd?: number | null; usage?: { promptTokens: number; completionTokens: number } | null; cached?: boolean };
        if (d.cached) continue;
        budget.spentUsd += d.costUsd ?? 0;
        budget.spentTokens += d.usage ? d.usage.promptTokens + d.usage.completionTokens : 0;
      }
      const client = createChatClient(
        { ...context.llmHttp, url: params.llm.url, model: params.llm.model, apiKey: apiKeyFor(context, params.llm.url), temperature: params.temperature, seed: params.seed ?? undefined, maxTokens: params.maxTokens, cache: llmResponseCache, budget },
        {},
      );
      return { client, budget };
    })();
    clients.set(runId, entry);
    entry.catch(() => clients.delete(runId));
  }
  return entry;
}

const numberOption = (value: unknown, name: string, check: (n: number) => boolean): number | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !check(value)) throw new AppError("INVALID_INPUT", { message: `invalid claim-generation ${name}: ${String(value)}` });
  return value;
};

export const claimSource: PseudoReferenceSource = {
  async plan(context, studyId, raw) {
    const options = raw as ClaimRunOptions;
    const llm = planLlm(context, { url: options.url, model: options.model, apiKey: options.apiKey });
    const prompt = claimPromptOf({ claimPrompt: await studyClaimPrompt(studyId) });
    const problem = claimPromptProblem(prompt);
    if (problem) throw new AppError("INVALID_INPUT", { message: `the study's claim prompt cannot be used: ${problem}` });
    const params: ClaimParams = {
      llm,
      prompt,
      promptVersion: promptVersion(prompt),
      temperature: numberOption(options.temperature, "temperature", (n) => n >= 0 && n <= 2) ?? 0,
      seed: numberOption(options.seed, "seed", Number.isInteger) ?? null,
      maxTokens: numberOption(options.maxTokens, "max tokens", (n) => Number.isInteger(n) && n > 0) ?? 1024,
      attempts: numberOption(options.attempts, "attempts", (n) => Number.isInteger(n) && n > 0) ?? 3,
      budget: { usd: numberOption(options.budgetUsd, "budget", (n) => n > 0) ?? null, tokens: numberOption(options.budgetTokens, "token budget", (n) => n > 0) ?? null },
    };
    const changes = await studyCodeChanges(studyId);
    // The budget is not part of the signature: a run stopped by its budget resumes with a larger one.
    const signature = ["claims", `model:${llm.model}`, `url:${llm.url}`, `prompt:${params.promptVersion.slice(0, 16)}`, `temp:${params.temperature}`, `seed:${params.seed ?? "none"}`, `max:${params.maxTokens}`, `attempts:${params.attempts}`].join("|");
    return { signature, params: params as unknown as Record<string, unknown>, codeChangeIds: changes.map((c) => c.id) };
  },

  async generate(context, run, changes) {
    const generated: Generated[] = [];
    for (const change of changes) generated.push(await claimsOf(context, run, change));
    return generated;
  },
};

/** One change's claims and implications. */
async function claimsOf(context: MetricJobContext, run: { id: string; params: Record<string, unknown> }, change: ChangeToGenerate): Promise<Generated> {
  const params = run.params as unknown as ClaimParams;
  const { client } = await runClient(context, run.id, params);
  const messages = [{ role: "user" as const, content: fillClaimPrompt(params.prompt, change) }];
  const answers: { model: string; usage: { promptTokens: number; completionTokens: number } | null; costUsd: number | null; cached: boolean; attempts: number }[] = [];
  const counting: ChatClient = {
    ...client,
    complete: async (request) => {
      const answer = await client.complete(request);
      answers.push({ model: answer.model, usage: answer.usage, costUsd: answer.costUsd, cached: answer.cached, attempts: answer.attempts });
      return answer;
    },
  };
  const asked = await askParsed(counting, messages, parseClaims, params.attempts, undefined, { promptVersion: params.promptVersion });
  const usage = answers.reduce<{ promptTokens: number; completionTokens: number } | null>((sum, a) => (a.usage && !a.cached ? { promptTokens: (sum?.promptTokens ?? 0) + a.usage.promptTokens, completionTokens: (sum?.completionTokens ?? 0) + a.usage.completionTokens } : sum), null);
  const fresh = answers.filter((a) => !a.cached);
  const costUsd = fresh.some((a) => a.costUsd === null && a.usage) ? null : fresh.reduce((n, a) => n + (a.costUsd ?? 0), 0);
  const model = answers[answers.length - 1]?.model ?? params.llm.model;
  const detail = { model, requests: fresh.reduce((n, a) => n + a.attempts, 0), cached: fresh.length === 0, usage, costUsd, answers: asked.outputs.length };
  if (!asked.ok) return { references: [], detail: { ...detail, refused: asked.error } };
  const metadata = { model, requestedModel: params.llm.model, promptVersion: params.promptVersion, temperature: params.temperature, seed: params.seed, maxTokens: params.maxTokens };
  const references: GeneratedReference[] = [
    ...asked.value.changes.map((text, i) => ({ externalId: `claim/${params.promptVersion.slice(0, 12)}/change/${i + 1}`, kind: "CLAIM" as const, text, source: model, metadata: { ...metadata, level: "low-level change" } })),
    ...asked.value.implications.map((text, i) => ({ externalId: `claim/${params.promptVersion.slice(0, 12)}/implication/${i + 1}`, kind: "IMPLICATION" as const, text, source: model, metadata: { ...metadata, level: "high-level implication" } })),
  ];
  return { references, detail };
}
