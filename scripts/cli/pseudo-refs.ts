import { CliError, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { db } from "@/lib/db/client";
import { requireStudy } from "@/lib/data/studies";
import { createJobContext } from "@/lib/metric-runs";
import { startQueue } from "@/lib/jobs";
import { listPseudoReferenceRuns, studySmellTables } from "@/lib/data/pseudo-references";
import { drainPseudoReferenceRun, PSEUDO_REFERENCE_SOURCES, startPseudoReferenceRun, type PseudoReferenceSourceName } from "@/lib/pseudo-refs";
import type { PseudoReferenceRun } from "@/lib/generated/prisma/client";
import { databaseUrl } from "@/lib/env";

/** One progress line per finished change on stderr (rewritten in place on a terminal). */
function progress(source: string): (run: PseudoReferenceRun) => void {
  return (run) => {
    const line = `pseudo-refs ${source}: ${run.done}/${run.total} code changes (${((100 * run.done) / Math.max(run.total, 1)).toFixed(0)}%)`;
    process.stderr.write(process.stderr.isTTY ? `\r${line}${run.done >= run.total ? "\n" : ""}` : `${line}\n`);
  };
}

const command: Command = {
  name: "pseudo-refs",
  usage: `pseudo-refs --study SLUG --source ${[...PSEUDO_REFERENCE_SOURCES, "all"].join("|")} [--concurrency N] [--llm-url URL --llm-model M --llm-api-key K] [--temperature T] [--seed N] [--max-tokens N] [--budget-usd D] [--budget-tokens N]   (generates CRScore pseudo-references as resumable jobs: smells from the language's static analyzers, claims and implications from the LLM at LLM_URL)`,
  async run(args) {
    const study = await requireStudy({ slug: requireFlag(args, "study") });
    const asked = requireFlag(args, "source");
    const sources = asked === "all" ? PSEUDO_REFERENCE_SOURCES : [asked as PseudoReferenceSourceName];
    if (!sources.every((s) => PSEUDO_REFERENCE_SOURCES.includes(s))) throw new CliError(`--source must be one of ${[...PSEUDO_REFERENCE_SOURCES, "all"].join(", ")}, got "${asked}"`);
    const concurrency = Number(optionalFlag(args, "concurrency") ?? 1);
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError(`--concurrency must be a positive integer`);
    const url = databaseUrl();
    const num = (name: string): number | undefined => {
      const value = optionalFlag(args, name);
      if (value === undefined) return undefined;
      const n = Number(value);
      if (!Number.isFinite(n)) throw new CliError(`--${name} must be a number, got "${value}"`);
      return n;
    };
    const claimOptions = {
      url: optionalFlag(args, "llm-url"),
      model: optionalFlag(args, "llm-model"),
      apiKey: optionalFlag(args, "llm-api-key"),
      temperature: num("temperature"),
      seed: num("seed"),
      maxTokens: num("max-tokens"),
      budgetUsd: num("budget-usd"),
      budgetTokens: num("budget-tokens"),
    };
    const context = createJobContext();
    const boss = await startQueue(url, { supervise: false });
    try {
      const runs = [];
      for (const source of sources) {
        const t0 = performance.now();
        const started = await startPseudoReferenceRun(context, boss, study.id, source, source === "claims" ? claimOptions : {});
        const doneBefore = started.run.done;
        const run = await drainPseudoReferenceRun(boss, context, started.run.id, { onProgress: progress(source), concurrency });
        if (run.status === "FAILED") throw new Error(`pseudo-reference run ${run.id} (${source}) failed: ${run.error}`);
        const [summary] = (await listPseudoReferenceRuns(study.id, db)).filter((r) => r.id === run.id);
        runs.push({ id: run.id, source, signature: run.signature, status: run.status, resumed: started.resumed, total: run.total, done: run.done, computedNow: run.done - doneBefore, pseudoReferences: summary.created, ...(source === "claims" ? { llm: summary.llm } : {}), seconds: Number(((performance.now() - t0) / 1000).toFixed(3)) });
      }
      // CRScore Tables 14 and 6 over the study's smells.
      return { study: study.slug, runs, ...(sources.includes("smells") ? await studySmellTables(study.id, db) : {}) };
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  },
};
export default command;
