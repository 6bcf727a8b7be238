/**
 * Pseudo-reference generation: the static analyzers' time per code change and language (the
 * real tools on the test fixtures' changes: JSHint in process, PMD starting a JVM, pylint,
 * radon and the PyScent detectors each a Python process), and LLM claim generation's
 * throughput (prompt filled, request, answer parsed) against a loopback chat server answering
 * at once or after 20 ms, without the PostgreSQL response cache. Never a model's speed.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { askParsed, createChatClient } from "@/lib/judges";
import { DEFAULT_CLAIM_PROMPT, fillClaimPrompt, parseClaims } from "@/lib/pseudo-refs/claim-prompt";
import { analyzeChange, detectAnalyzers } from "@/lib/static-analysis";
import { JAVA_CHANGE, JS_CHANGE, PYTHON_CHANGE } from "../../tests/unit/static-analysis/fixtures";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ANSWER = "CHANGES:\n- A parameter path is added to load.\nIMPLICATIONS:\n- Callers choose the file.";

async function analyzers(): Promise<void> {
  const statuses = await detectAnalyzers();
  const versions = Object.fromEntries(statuses.flatMap((s) => (s.available ? [[s.tool, s.version]] : [])));
  const missing = statuses.flatMap((s) => (s.available ? [] : [s.message]));
  if (missing.length) console.log(`skipped: ${missing.join(" ")}`);
  for (const change of [JS_CHANGE, JAVA_CHANGE, PYTHON_CHANGE]) {
    const tools = { javascript: ["jshint"], java: ["pmd"], python: ["pylint", "radon", "pyscent"] }[change.language];
    if (tools.some((t) => !versions[t])) continue;
    const walls: number[] = [];
    const perTool: Record<string, number[]> = {};
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const result = await analyzeChange(change, versions);
      walls.push((performance.now() - t0) / 1000);
      for (const [tool, tally] of Object.entries(result.tools)) (perTool[tool] ??= []).push(tally.seconds);
    }
    const tally = Object.entries(perTool).map(([tool, s]) => `${tool} ${median(s).toFixed(2)} s`).join(", ");
    console.log(`analysis per code change, ${change.language.padEnd(10)} ${median(walls).toFixed(2).padStart(6)} s median of 3 (new and old file; ${tally})`);
  }
}

async function claims(): Promise<void> {
  for (const delayMs of [0, 20]) {
    const body = JSON.stringify({ model: "bench", choices: [{ index: 0, message: { role: "assistant", content: ANSWER }, finish_reason: "stop" }], usage: { prompt_tokens: 300, completion_tokens: 30 } });
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(body), delayMs));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const maxConcurrency of [1, 4, 16]) {
      const client = createChatClient({ url, model: "bench", maxConcurrency, maxTokens: 1024 }, {});
      const n = delayMs === 0 ? 1000 : maxConcurrency * 25;
      const one = () => askParsed(client, [{ role: "user", content: fillClaimPrompt(DEFAULT_CLAIM_PROMPT, PYTHON_CHANGE) }], parseClaims, 3);
      await Promise.all(Array.from({ length: 10 }, one));
      const t0 = performance.now();
      await Promise.all(Array.from({ length: n }, one));
      const seconds = (performance.now() - t0) / 1000;
      console.log(`claim generation, server delay ${String(delayMs).padStart(2)} ms, concurrency ${String(maxConcurrency).padStart(2)} ${(n / seconds).toFixed(0).padStart(7)} changes/s   (${n} in ${seconds.toFixed(2)} s)`);
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export default async function run(): Promise<void> {
  await analyzers();
  await claims();
}
