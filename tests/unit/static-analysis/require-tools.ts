import type { AnalyzerStatus } from "@/lib/static-analysis";

/** True when every tool is available; else skips visibly, and under CI=true a missing tool fails. */
export function requireTools(statuses: AnalyzerStatus[], ...tools: string[]): boolean {
  const missing = statuses.filter((s) => tools.includes(s.tool) && !s.available);
  if (missing.length === 0) return true;
  const message = missing.map((s) => (s.available ? "" : s.message)).join(" ");
  if (process.env.CI === "true") throw new Error(message);
  console.warn(`[skip] ${message}`);
  return false;
}
