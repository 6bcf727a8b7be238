"use client";

import { CartesianGrid, Legend, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "../format";
import { PALETTE } from "./palette";

export interface ScatterPoint {
  metric: number;
  human: number;
  system: string;
  language: string;
}

/** Metric (x) against the mean human score (y) of each review, one colour per language. */
export function MetricScatterChart({ points, xLabel, yLabel, label }: { points: ScatterPoint[]; xLabel: string; yLabel: string; label: string }) {
  const languages = [...new Set(points.map((p) => p.language))].sort();
  return (
    <figure className="rounded border border-slate-200 bg-white p-2" aria-label={label} data-testid="chart">
      <figcaption className="mb-1 text-xs text-slate-600">{label}</figcaption>
      <ResponsiveContainer width="100%" height={300}>
        <ScatterChart margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis type="number" dataKey="metric" name={xLabel} tick={{ fontSize: 11 }} tickFormatter={(v: number) => Number(v.toFixed(3)).toString()} label={{ value: xLabel, position: "insideBottom", offset: -8, fontSize: 11 }} />
          <YAxis type="number" dataKey="human" name={yLabel} tick={{ fontSize: 11 }} domain={["dataMin", "dataMax"]} label={{ value: yLabel, angle: -90, position: "insideLeft", fontSize: 11 }} />
          <Tooltip cursor={{ strokeDasharray: "3 3" }} formatter={(value) => (typeof value === "number" ? formatNumber(value) : String(value))} />
          <Legend wrapperStyle={{ fontSize: 11 }} verticalAlign="top" />
          {languages.map((language, i) => (
            <Scatter key={language} name={language} data={points.filter((p) => p.language === language)} fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
          ))}
        </ScatterChart>
      </ResponsiveContainer>
    </figure>
  );
}
