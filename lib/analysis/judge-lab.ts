/**
 * The judge lab's rows (docs/judges.md): per question, one row per (prompt version, model, judge
 * rater) with its agreement beside its cost. The agreement is the agreement report's judges
 * section (./judge-agreement.ts: mean Human–Judge κ with its CI beside the Human–Human mean,
 * accuracy or F1 against the consensus); the cost, tokens and latency are the run's answers'
 * (JudgeAnswer). Cost per 1,000 items is of the answers actually requested: an answer served
 * from the cache (a re-run of the same prompt and model) costs nothing and counts apart.
 */
import type { TaskType } from "@/lib/generated/prisma/enums";
import { modelPrice } from "@/lib/judges/prices";
import type { AgreementReport } from "./agreement-report";
import type { Interval } from "./resample";

/** The answers of one (question, prompt version, model, judge rater) over all its runs. */
export interface JudgeVersionStats {
  task: TaskType;
  question: string;
  promptVersion: string;
  /** The preset's name, "" for a lead's own text. */
  preset: string;
  model: string;
  /** The judge rater's name, judge:NAME. */
  rater: string;
  runs: number;
  /** Items answered (parsed or not). */
  items: number;
  /** Items whose reply could be read. */
  answers: number;
  parseFailures: number;
  /** Items served from the response cache: no request sent, nothing spent. */
  cached: number;
  promptTokens: number;
  completionTokens: number;
  /** USD of the requested answers; null when one has no price. */
  costUsd: number | null;
  /** Latency of the requested answers (ms); null when every answer came from the cache. */
  latencyMedianMs: number | null;
  latencyP95Ms: number | null;
}

export interface JudgeLabRow extends JudgeVersionStats {
  /** Mean Human–Judge κ and its CI; null (with why) when the report has none. */
  kappa: number | null;
  kappaCi: Interval | null;
  /** The Human–Human mean κ of the question, beside it. */
  humanHuman: number | null;
  /** F1 of the positive answer on a binary question, else accuracy, against the consensus. */
  versusConsensus: { measure: "F1" | "accuracy"; value: number | null; ci: [number | null, number | null] | null; items: number } | null;
  /** USD per 1,000 items answered by request; null when the model has no price or nothing was requested. */
  costPerThousand: number | null;
  /** Why a figure is missing: "no price" for a model not in the price table, a report reason, …. */
  notes: string[];
}

/** USD per 1,000 items of the requested answers, or why there is none. */
export function costPerThousandItems(s: Pick<JudgeVersionStats, "model" | "items" | "cached" | "costUsd">): { value: number | null; note?: string } {
  if (!modelPrice(s.model)) return { value: null, note: "no price" };
  const requested = s.items - s.cached;
  if (requested === 0) return { value: null, note: "every answer came from the cache" };
  if (s.costUsd === null) return { value: null, note: "no price" };
  return { value: (1000 * s.costUsd) / requested };
}

/** The lab's rows: each version's answers with its agreement from the report (judges sections). */
export function judgeLabRows(stats: readonly JudgeVersionStats[], report: Pick<AgreementReport, "tasks">): JudgeLabRow[] {
  return stats.map((s) => {
    const q = report.tasks.find((t) => t.task === s.task)?.questions.find((x) => x.question === s.question);
    const judges = q?.judges ?? null;
    const hj = judges?.humanJudge[s.rater];
    const against = judges?.againstConsensus[s.rater];
    const cost = costPerThousandItems(s);
    const notes = [
      ...(!q ? ["the agreement report has no such question"] : !hj ? ["no annotator answers to compare with"] : hj.reason ? [hj.reason] : []),
      ...(cost.note ? [cost.note] : []),
    ];
    return {
      ...s,
      kappa: hj?.mean ?? null,
      kappaCi: hj?.ci ?? null,
      humanHuman: judges?.humanHuman.mean ?? null,
      versusConsensus: against
        ? against.f1
          ? { measure: "F1", value: against.f1.value, ci: against.f1.ci ? [against.f1.ci.low, against.f1.ci.high] : null, items: against.items }
          : { measure: "accuracy", value: against.accuracy.value, ci: against.accuracy.ci, items: against.items }
        : null,
      costPerThousand: cost.value,
      notes,
    };
  });
}
