"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { CategoryBar } from "../comment-systems";
import { formatPercent } from "../format";
import { CATEGORY_PALETTE } from "./palette";

/**
 * c-CRAB Figure 6: one bar per system (the human reviewers' first), stacked by the share of its
 * decided comments in each category, so each bar reaches 100 % (0 when nothing is decided yet).
 */
export function CategoryChart({ bars, categories, label }: { bars: CategoryBar[]; categories: { code: string; label: string }[]; label: string }) {
  return (
    <figure className="rounded border border-slate-200 bg-white p-2" aria-label={label} data-testid="category-chart">
      <figcaption className="mb-1 text-xs text-slate-600">{label}</figcaption>
      <ResponsiveContainer width="100%" height={Math.max(160, 48 * bars.length + 90)}>
        <BarChart data={bars} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" horizontal={false} />
          <XAxis type="number" domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} tickFormatter={(v: number) => `${v} %`} tick={{ fontSize: 11 }} />
          <YAxis type="category" dataKey="system" width={150} tick={{ fontSize: 11 }} />
          <Tooltip
            formatter={(value, name) => [typeof value === "number" ? formatPercent(value / 100) : String(value), name]}
            labelFormatter={(system, payload) => `${system} · ${(payload?.[0]?.payload as CategoryBar | undefined)?.decided ?? 0} decided comments`}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} verticalAlign="top" />
          {categories.map((c, i) => (
            <Bar key={c.code} dataKey={c.code} name={c.label} stackId="share" fill={CATEGORY_PALETTE[i % CATEGORY_PALETTE.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
