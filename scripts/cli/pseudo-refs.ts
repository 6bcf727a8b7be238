import { CliError, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { db } from "@/lib/db/client";
import { findStudy } from "@/lib/analysis";
import { createJobContext, startQueue } from "@/lib/jobs";
import { drainPseudoReferenceRun, PSEUDO_REFERENCE_SOURCES, startPseudoReferenceRun, type PseudoReferenceSourceName } from "@/lib/pseudo-refs";
import type { PseudoReferenceRun } from "@/lib/generated/prisma/client";

/** One progress line per finished change on stderr (rewritten in place on a terminal). */
function progress(source: string): (run: PseudoReferenceRun) => void {
  return (run) => {
    const line = `pseudo-refs ${source}: ${run.done}/${run.total} code changes (${((100 * run.done) / Math.max(run.total, 1)).toFixed(0)}%)`;
    process.stderr.write(process.stderr.isTTY ? `\r${line}${run.done >= run.total ? "\n" : ""}` : `${line}\n`);
  };
}

const command: Command = {
  name: "pseudo-refs",
  usage: `pseudo-refs --study SLUG --source ${[...PSEUDO_REFERENCE_SOURCES, "all"].join("|")} [--concurrency N]   (generates CRScore pseudo-references as resumable jobs: smells from the language's static analyzers)`,
  async run(args) {
    const study = await findStudy({ slug: requireFlag(args, "study") });
    const asked = requireFlag(args, "source");
    const sources = asked === "all" ? PSEUDO_REFERENCE_SOURCES : [asked as PseudoReferenceSourceName];
    if (!sources.every((s) => PSEUDO_REFERENCE_SOURCES.includes(s))) throw new CliError(`--source must be one of ${[...PSEUDO_REFERENCE_SOURCES, "all"].join(", ")}, got "${asked}"`);
    const concurrency = Number(optionalFlag(args, "concurrency") ?? 1);
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError(`--concurrency must be a positive integer`);
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set");
    const context = createJobContext({ client: db });
    const boss = await startQueue(url, { supervise: false });
    try {
      const runs = [];
      for (const source of sources) {
        const t0 = performance.now();
        const started = await startPseudoReferenceRun(context, boss, study.id, source);
        const doneBefore = started.run.done;
        const run = await drainPseudoReferenceRun(boss, context, started.run.id, { onProgress: progress(source), concurrency });
        if (run.status === "FAILED") throw new Error(`pseudo-reference run ${run.id} (${source}) failed: ${run.error}`);
        const stored = await db.pseudoReferenceRunItem.aggregate({ where: { runId: run.id }, _sum: { created: true } });
        runs.push({ id: run.id, source, signature: run.signature, status: run.status, resumed: started.resumed, total: run.total, done: run.done, computedNow: run.done - doneBefore, pseudoReferences: stored._sum.created ?? 0, seconds: Number(((performance.now() - t0) / 1000).toFixed(3)) });
      }
      return { study: study.slug, runs };
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  },
};
export default command;
