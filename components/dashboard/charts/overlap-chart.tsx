"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { OverlapBar } from "../tools-report";
import { PALETTE } from "./palette";

const ROW = 18;
/** The dots start under the count. */
const TOP = 28;

/** Under a bar: its count (0 too, which draws no bar), then its combination as a column of dots, one per system (recharts adds x, y and index). */
function MatrixTick({ bars, systems, x, y, index }: { bars: OverlapBar[]; systems: string[]; x?: number; y?: number; index?: number }) {
  const bar = bars[index ?? 0];
  if (!bar || x === undefined || y === undefined) return null;
  const filled = systems.map((_, k) => bar.members[k]);
  const first = filled.indexOf(true);
  const last = filled.lastIndexOf(true);
  return (
    <g data-testid="overlap-matrix-column" data-combination={bar.key}>
      <text x={x} y={y + 12} textAnchor="middle" fontSize={11} fontWeight={600} fill="#0f172a" data-testid="overlap-count">
        {bar.passed}
      </text>
      {first >= 0 && last > first && <line x1={x} x2={x} y1={y + TOP + first * ROW} y2={y + TOP + last * ROW} stroke="#334155" strokeWidth={2} />}
      {systems.map((system, k) => (
        <circle key={system} cx={x} cy={y + TOP + k * ROW} r={5} fill={filled[k] ? "#334155" : "#e2e8f0"} />
      ))}
      {index === 0 &&
        systems.map((system, k) => (
          <text key={system} x={x - 16} y={y + TOP + 4 + k * ROW} textAnchor="end" fontSize={11} fill="#334155" data-testid="overlap-system">
            {system}
          </text>
        ))}
    </g>
  );
}

/**
 * c-CRAB Figure 5 as an UpSet chart: a bar per combination of systems with the tests passed by
 * exactly those systems, and under each bar its count and the combination as a column of dots,
 * filled for the systems it holds (the system names left of the first column).
 */
export function OverlapChart({ bars, systems, label }: { bars: OverlapBar[]; systems: string[]; label: string }) {
  const matrixHeight = systems.length * ROW + TOP + 4;
  return (
    <figure className="rounded border border-slate-200 bg-white p-2" aria-label={label} data-testid="overlap-chart">
      <figcaption className="mb-1 text-xs text-slate-600">{label}</figcaption>
      <ResponsiveContainer width="100%" height={260 + matrixHeight}>
        <BarChart data={bars} margin={{ top: 20, right: 24, bottom: 8, left: 110 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="key" interval={0} height={matrixHeight} tickLine={false} tick={<MatrixTick bars={bars} systems={systems} />} />
          <YAxis allowDecimals={false} width={40} tick={{ fontSize: 11 }} label={{ value: "passed tests", angle: -90, position: "insideLeft", fontSize: 11 }} />
          <Tooltip formatter={(value) => [String(value), "tests passed by exactly these"]} labelFormatter={(key) => String(key).split("+").join(" + ")} />
          <Bar dataKey="passed" fill={PALETTE[0]} maxBarSize={64} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
