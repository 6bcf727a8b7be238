/**
 * The judge lab's tables: a row per (question, prompt version, model, judge rater) with its
 * agreement beside its cost (lib/analysis/judge-lab.ts computes every number; here they are laid
 * out), and the runs with their progress.
 */
import type { JudgeLabRow } from "@/lib/analysis/judge-lab";
import type { ReactNode } from "react";
import { formatTime } from "@/components/dashboard/format";
import { type Cell, content, count, fileSlug, num, progress, type TableData, text } from "@/components/dashboard/table-data";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import type { LabPoint } from "./lab-scatter";

/** A version's short name: its preset or "study's own", and the first 12 hex digits of its SHA-256. */
export const versionLabel = (r: { promptVersion: string; preset: string }) => `${r.promptVersion.slice(0, 12)} (${r.preset || "study's own"})`;

const usd = (value: number | null, digits: number, extra: Partial<Cell> = {}): Cell => ({ text: value === null ? "—" : `$${value.toFixed(digits)}`, value, ...extra });
const ms = (value: number | null): Cell => ({ text: value === null ? "—" : `${Math.round(value)} ms`, value });

export function labTable(slug: string, rows: readonly JudgeLabRow[], pending: boolean): TableData {
  return {
    id: "judge-lab",
    title: "Prompt versions and models",
    filename: fileSlug(slug, "judge-lab"),
    empty: "No judge has answered yet: run a prompt version from the prompts page.",
    columns: [
      { key: "question", label: "Question" },
      { key: "version", label: "Prompt version" },
      { key: "model", label: "Model" },
      { key: "rater", label: "Rater" },
      { key: "kappa", label: "Mean Human–Judge κ", numeric: true, sortable: true },
      { key: "kappaCi", label: "κ 95% CI" },
      { key: "humanHuman", label: "Mean Human–Human κ", numeric: true },
      { key: "consensus", label: "Against consensus", numeric: true, sortable: true, title: "F1 of the positive answer on a binary question, else accuracy" },
      { key: "answers", label: "Answers", numeric: true },
      { key: "parseFailures", label: "Parse failures", numeric: true },
      { key: "cached", label: "From the cache", numeric: true, title: "Answers served from the response cache: no request, no cost" },
      { key: "tokens", label: "Tokens", numeric: true },
      { key: "cost", label: "USD per 1,000 items", numeric: true, sortable: true },
      { key: "latencyMedian", label: "Latency median", numeric: true },
      { key: "latencyP95", label: "Latency p95", numeric: true },
      { key: "notes", label: "Notes" },
    ],
    rows: rows.map((r) => ({
      key: `${r.task}:${r.question}:${r.promptVersion}:${r.model}:${r.rater}`,
      data: { testid: "lab-row", version: r.promptVersion },
      cells: [
        text(`${TASK_LABELS[r.task]}: ${r.question}`),
        text(versionLabel(r), { mono: true, title: r.promptVersion }),
        text(r.model),
        text(r.rater),
        num(r.kappa, { title: r.notes.join("; ") || undefined }),
        text(pending ? "computing…" : r.kappaCi && r.kappaCi.low !== null && r.kappaCi.high !== null ? `${r.kappaCi.low.toFixed(4)} – ${r.kappaCi.high.toFixed(4)}` : (r.kappaCi?.reason ?? "—")),
        num(r.humanHuman),
        num(r.versusConsensus?.value ?? null, { sub: r.versusConsensus ? `${r.versusConsensus.measure}, n ${r.versusConsensus.items}` : undefined }),
        count(r.answers),
        count(r.parseFailures),
        count(r.cached),
        count(r.promptTokens + r.completionTokens),
        r.costPerThousand === null && r.notes.includes("no price") ? { text: "no price", value: null } : usd(r.costPerThousand, 4),
        ms(r.latencyMedianMs),
        ms(r.latencyP95Ms),
        text(r.notes.join("; ")),
      ],
    })),
  };
}

/** The scatter's points: agreement (mean Human–Judge κ) against USD per 1,000 items, the rows having both. */
export function labPoints(rows: readonly JudgeLabRow[]): LabPoint[] {
  return rows.flatMap((r) => (r.kappa === null || r.costPerThousand === null ? [] : [{ cost: r.costPerThousand, kappa: r.kappa, label: `${r.question} · ${versionLabel(r)} · ${r.model}`, version: r.promptVersion }]));
}

export interface LabRun {
  id: string;
  createdAt: Date;
  rater: string;
  task: keyof typeof TASK_LABELS;
  question: string;
  model: string;
  promptVersion: string;
  preset: string;
  status: string;
  total: number;
  done: number;
  error: string | null;
  answers: number;
  parseFailures: number;
  cached: number;
  tokens: number;
  costUsd: number | null;
}

/** The runs with their progress: answered of items, parse failures, tokens and USD; `resume` is the button of an unfinished run. */
export function runsTable(slug: string, runs: readonly LabRun[], resume: (run: LabRun) => ReactNode): TableData {
  return {
    id: "judge-runs",
    title: "Judge runs",
    filename: fileSlug(slug, "judge-runs"),
    empty: "No judge run yet.",
    columns: [
      { key: "created", label: "Started" },
      { key: "question", label: "Question" },
      { key: "version", label: "Prompt version" },
      { key: "model", label: "Model" },
      { key: "rater", label: "Rater" },
      { key: "status", label: "Status" },
      { key: "progress", label: "Answered / items" },
      { key: "parseFailures", label: "Parse failures", numeric: true },
      { key: "cached", label: "From the cache", numeric: true },
      { key: "tokens", label: "Tokens", numeric: true },
      { key: "cost", label: "USD", numeric: true },
      { key: "error", label: "Error" },
      { key: "actions", label: "Actions", end: true },
    ],
    rows: runs.map((r) => ({
      key: r.id,
      data: { testid: "judge-run" },
      cells: [
        text(formatTime(r.createdAt), { title: r.id }),
        text(`${TASK_LABELS[r.task]}: ${r.question}`),
        text(versionLabel(r), { mono: true, title: r.promptVersion }),
        text(r.model),
        text(r.rater),
        text(r.status, { data: { status: r.status } }),
        progress(r.done, r.total),
        count(r.parseFailures),
        count(r.cached),
        count(r.tokens),
        r.costUsd === null ? { text: "no price", value: null } : usd(r.costUsd, 4),
        text(r.error ?? ""),
        r.status === "DONE" ? text("") : content(resume(r)),
      ],
    })),
  };
}
