"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "../format";

export interface LevelPoint {
  level: number;
  n: number;
  mean: number | null;
  median: number | null;
}

/** Mean (bars) and median (line) of the metric per human score level (CRScore Figure 8). */
export function LevelChart({ points, metricLabel, label }: { points: LevelPoint[]; metricLabel: string; label: string }) {
  return (
    <figure className="rounded border border-slate-200 bg-white p-2" aria-label={label} data-testid="chart">
      <figcaption className="mb-1 text-xs text-slate-600">{label}</figcaption>
      <ResponsiveContainer width="100%" height={260}>
        <ComposedChart data={points} margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="level" tick={{ fontSize: 11 }} label={{ value: "human score level", position: "insideBottom", offset: -8, fontSize: 11 }} />
          <YAxis tick={{ fontSize: 11 }} tickFormatter={(v: number) => Number(v.toFixed(3)).toString()} label={{ value: metricLabel, angle: -90, position: "insideLeft", fontSize: 11 }} />
          <Tooltip formatter={(value) => (typeof value === "number" ? formatNumber(value) : String(value))} labelFormatter={(level, payload) => `level ${level} · n ${(payload?.[0]?.payload as { n?: number } | undefined)?.n ?? 0}`} />
          <Legend wrapperStyle={{ fontSize: 11 }} verticalAlign="top" />
          <Bar dataKey="mean" name="mean metric" fill="#93c5fd" isAnimationActive={false} />
          <Line dataKey="median" name="median metric" stroke="#1d4ed8" dot={{ r: 3 }} connectNulls={false} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
