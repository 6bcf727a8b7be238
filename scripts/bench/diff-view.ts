/**
 * Server render time of the diff view for a 2,000-line diff (issue 5): parsing, highlighting
 * and renderToString of the unified and split layouts, as the workspace page does on the
 * server. The browser side (time to interactive, scrolling) is measured by
 * e2e/workspace-perf.spec.ts.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { DiffView } from "@/components/diff-view/diff-view";
import { buildFileModels, type DiffSource } from "@/components/diff-view/model";
import { unifiedDiff } from "@/lib/diff";

/** A Python file of `functions` ten-line functions; the new version changes two lines in each. */
export function makeLargePythonChange(diffLines = 2000): { oldFile: string; newFile: string; diff: string; path: string } {
  const functions = Math.round(diffLines / 12);
  const oldLines: string[] = [];
  const newLines: string[] = [];
  for (let i = 0; i < functions; i++) {
    const body = [
      `def function_${i}(value, factor=${i}):`,
      `    """Scale value by factor ${i} and label large results."""`,
      `    total = value * factor  # scale`,
      `    if total > ${i * 3}:`,
      `        return "big-${i}"`,
      `    for item in range(${i % 7}):`,
      `        total += item`,
      `    return total`,
      ``,
      ``,
    ];
    oldLines.push(...body);
    const changed = body.slice();
    changed[2] = `    total = value * factor + ${i % 5}  # scale and shift`;
    changed[6] = `        total += item * 2  # doubled`;
    newLines.push(...changed);
  }
  const oldFile = oldLines.join("\n") + "\n";
  const newFile = newLines.join("\n") + "\n";
  const path = "src/large_module.py";
  return { oldFile, newFile, path, diff: unifiedDiff(oldFile, newFile, { path }) };
}

function time(fn: () => unknown, runs: number): { median: number; min: number } {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], min: samples[0] };
}

export default async function bench(): Promise<void> {
  const change = makeLargePythonChange(2000);
  const lines = change.diff.split("\n").length - 1;
  const source: DiffSource = { key: "large", path: change.path, language: "python", diff: change.diff, oldFile: change.oldFile, newFile: change.newFile, primary: true };
  const runs = 15;
  // warm-up (JIT)
  for (let i = 0; i < 3; i++) renderToString(createElement(DiffView, { sources: [source], mode: "unified" }));
  const model = time(() => buildFileModels(source), runs);
  const unified = time(() => renderToString(createElement(DiffView, { sources: [source], mode: "unified" })), runs);
  const split = time(() => renderToString(createElement(DiffView, { sources: [source], mode: "split" })), runs);
  const html = renderToString(createElement(DiffView, { sources: [source], mode: "unified" }));
  const f = (x: { median: number; min: number }) => `median ${x.median.toFixed(1)} ms, min ${x.min.toFixed(1)} ms`;
  console.log(`diff: ${lines} lines (${change.oldFile.split("\n").length - 1} -> ${change.newFile.split("\n").length - 1} file lines)`);
  console.log(`parse + highlight (model): ${f(model)}`);
  console.log(`server render, unified:    ${f(unified)}`);
  console.log(`server render, split:      ${f(split)}`);
  console.log(`unified HTML: ${(html.length / 1024).toFixed(0)} KiB`);
}
