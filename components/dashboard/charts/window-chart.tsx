"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "../format";
import { PALETTE } from "./palette";

export interface WindowPoint {
  window: number;
  items: number;
  range: string;
  /** Coefficient key → value (null when undefined on the window). */
  values: Record<string, number | null>;
}

/** Agreement coefficients per window of consecutive items, in study order (GradedReviews §4.3). */
export function WindowChart({ points, series, label }: { points: WindowPoint[]; series: { key: string; label: string }[]; label: string }) {
  const data = points.map((p) => ({ window: p.window, items: p.items, range: p.range, ...p.values }));
  return (
    <figure className="rounded border border-slate-200 bg-white p-2" aria-label={label} data-testid="chart">
      <figcaption className="mb-1 text-xs text-slate-600">{label}</figcaption>
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="window" label={{ value: "window", position: "insideBottomRight", offset: -4, fontSize: 11 }} tick={{ fontSize: 11 }} allowDecimals={false} />
          <YAxis domain={[(min: number) => Math.min(0, Math.floor(min * 10) / 10), 1]} tick={{ fontSize: 11 }} tickFormatter={(v: number) => Number(v.toFixed(2)).toString()} />
          <Tooltip
            formatter={(value) => (typeof value === "number" ? formatNumber(value) : String(value))}
            labelFormatter={(n, payload) => {
              const p = payload?.[0]?.payload as { range?: string; items?: number } | undefined;
              return `window ${n}${p ? ` · ${p.items} items · ${p.range}` : ""}`;
            }}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {series.map((s, i) => (
            <Line key={s.key} type="monotone" dataKey={s.key} name={s.label} stroke={PALETTE[i % PALETTE.length]} dot={{ r: 3 }} connectNulls={false} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
