"use client";

import { CartesianGrid, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "@/components/dashboard/format";

export interface LabPoint {
  /** USD per 1,000 items. */
  cost: number;
  /** Mean Human–Judge κ. */
  kappa: number;
  label: string;
  version: string;
}

/** Agreement against cost: a point per (prompt version, model) of the judge lab. */
export function LabScatter({ points, label }: { points: LabPoint[]; label: string }) {
  return (
    <figure className="rounded border border-slate-200 bg-white p-2" aria-label={label} data-testid="lab-scatter" data-points={points.length}>
      <figcaption className="mb-1 text-xs text-slate-600">{label}</figcaption>
      {points.length === 0 ? (
        <p className="p-4 text-sm text-slate-500">No version has both an agreement and a price yet.</p>
      ) : (
        <ResponsiveContainer width="100%" height={300}>
          <ScatterChart margin={{ top: 8, right: 16, bottom: 24, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis type="number" dataKey="cost" name="USD per 1,000 items" tick={{ fontSize: 11 }} tickFormatter={(v: number) => `$${Number(v.toPrecision(3))}`} label={{ value: "USD per 1,000 items", position: "insideBottom", offset: -12, fontSize: 11 }} />
            <YAxis type="number" dataKey="kappa" name="Mean Human–Judge κ" domain={[(min: number) => Math.min(0, Math.floor(min * 10) / 10), 1]} tick={{ fontSize: 11 }} label={{ value: "mean Human–Judge κ", angle: -90, position: "insideLeft", fontSize: 11 }} />
            <Tooltip
              cursor={{ strokeDasharray: "3 3" }}
              content={({ active, payload }) => {
                const p = active ? (payload?.[0]?.payload as LabPoint | undefined) : undefined;
                return p ? (
                  <div className="rounded border border-slate-300 bg-white p-2 text-xs shadow">
                    <p className="font-medium">{p.label}</p>
                    <p>mean Human–Judge κ {formatNumber(p.kappa)}</p>
                    <p>${formatNumber(p.cost)} per 1,000 items</p>
                  </div>
                ) : null;
              }}
            />
            <Scatter name="versions" data={points} fill="#dc2626" isAnimationActive={false} />
          </ScatterChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}
