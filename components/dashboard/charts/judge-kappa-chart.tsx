"use client";

import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "../format";

export interface KappaBar {
  label: string;
  /** Null when undefined (no bar; the table says why). */
  kappa: number | null;
  kind: "human" | "judge";
  /** The judge's bootstrap CI of its mean κ. */
  ci?: [number, number] | null;
}

/** Human–Human bars in blue, judges' in red (SWE-Judge Figure 4 highlights the Human–Tool average in red). */
const COLOURS = { human: "#2563eb", judge: "#dc2626" };

/** SWE-Judge Figure 4 for one question: min, max and mean Human–Human κ beside each judge's mean Human–Judge κ (its CI as an error bar). */
export function JudgeKappaChart({ bars, label }: { bars: KappaBar[]; label: string }) {
  // An error bar only where the judge's mean has a CI.
  const data = bars.map((b) => ({ ...b, error: b.ci && b.kappa !== null ? [b.kappa - b.ci[0], b.ci[1] - b.kappa] : undefined }));
  // κ runs from -1 to 1: the axis from the lowest value (or CI bound) down to a quarter, to 1, ticks at quarters.
  const lowest = Math.min(0, ...bars.flatMap((b) => [b.kappa ?? 0, b.ci?.[0] ?? 0]));
  const start = Math.max(-1, Math.floor(lowest * 4) / 4);
  const ticks = Array.from({ length: Math.round((1 - start) * 4) + 1 }, (_, i) => start + i / 4);
  return (
    <figure className="rounded border border-slate-200 bg-white p-2" aria-label={label} data-testid="judge-kappa-chart">
      <figcaption className="mb-1 text-xs text-slate-600">{label}</figcaption>
      <ResponsiveContainer width="100%" height={Math.max(160, 36 * bars.length + 60)}>
        <BarChart data={data} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" horizontal={false} />
          <XAxis type="number" domain={[start, 1]} ticks={ticks} tick={{ fontSize: 11 }} tickFormatter={(v: number) => Number(v.toFixed(2)).toString()} />
          <YAxis type="category" dataKey="label" width={190} tick={{ fontSize: 11 }} />
          <ReferenceLine x={0} stroke="#94a3b8" />
          <Tooltip formatter={(value) => (typeof value === "number" ? formatNumber(value) : "undefined")} />
          <Bar dataKey="kappa" name="Cohen's κ" isAnimationActive={false}>
            {data.map((d) => (
              <Cell key={d.label} fill={COLOURS[d.kind]} />
            ))}
            <ErrorBar dataKey="error" width={6} stroke="#111827" direction="x" />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
