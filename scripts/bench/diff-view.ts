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

/**
 * A Python file of `functions` ten-line functions; the new version changes two lines in each.
 * Each `variant` gives different texts (not yet highlighted), for the cold render.
 */
export function makeLargePythonChange(diffLines = 2000, variant = 0): { oldFile: string; newFile: string; diff: string; path: string } {
  const functions = Math.round(diffLines / 12);
  const oldLines: string[] = [];
  const newLines: string[] = [];
  for (let i = 0; i < functions; i++) {
    const body = [
      `def function_${i}(value, factor=${i}):`,
      `    """Scale value by factor ${i} and label large results${variant ? ` (variant ${variant})` : ""}."""`,
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

/** Times `fn` on a new input from `input` (made outside the timing) each run. */
function timeEach<T>(input: () => T, fn: (x: T) => unknown, runs: number): { median: number; min: number } {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const x = input();
    const t0 = performance.now();
    fn(x);
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], min: samples[0] };
}

const time = (fn: () => unknown, runs: number) => timeEach(() => undefined, fn, runs);

const sourceOf = (change: ReturnType<typeof makeLargePythonChange>): DiffSource => ({ key: "large", path: change.path, language: "python", diff: change.diff, oldFile: change.oldFile, newFile: change.newFile, primary: true });
const render = (source: DiffSource, mode: "unified" | "split") => renderToString(createElement(DiffView, { sources: [source], mode }));

export default async function bench(): Promise<void> {
  const change = makeLargePythonChange(2000);
  const lines = change.diff.split("\n").length - 1;
  const source = sourceOf(change);
  const runs = 15;
  // Cold: a change never highlighted before (the first render of an item); warm: the same change
  // again (every later render: other annotators, visits, the other layout), from the highlighter's cache.
  let variant = 0;
  const fresh = () => sourceOf(makeLargePythonChange(2000, ++variant));
  // warm-up (JIT)
  for (let i = 0; i < 3; i++) render(fresh(), "unified");
  const coldModel = timeEach(fresh, (s) => buildFileModels(s), runs);
  const coldUnified = timeEach(fresh, (s) => render(s, "unified"), runs);
  const coldSplit = timeEach(fresh, (s) => render(s, "split"), runs);
  render(source, "unified");
  const model = time(() => buildFileModels(source), runs);
  const unified = time(() => render(source, "unified"), runs);
  const split = time(() => render(source, "split"), runs);
  const html = render(source, "unified");
  const f = (x: { median: number; min: number }) => `median ${x.median.toFixed(1)} ms, min ${x.min.toFixed(1)} ms`;
  console.log(`diff: ${lines} lines (${change.oldFile.split("\n").length - 1} -> ${change.newFile.split("\n").length - 1} file lines), highlight.js`);
  console.log(`parse + highlight (model), cold: ${f(coldModel)}`);
  console.log(`server render, unified, cold:    ${f(coldUnified)}`);
  console.log(`server render, split, cold:      ${f(coldSplit)}`);
  console.log(`parse + highlight (model), warm: ${f(model)}`);
  console.log(`server render, unified, warm:    ${f(unified)}`);
  console.log(`server render, split, warm:      ${f(split)}`);
  console.log(`unified HTML: ${(html.length / 1024).toFixed(0)} KiB`);
}
