/**
 * Server render time of the diff view for a 2,000-line diff: parsing,
 * highlighting and renderToString of the unified and split layouts, as the workspace page does
 * on the server (and the browser on hydration): the first screen highlighted. Then the whole
 * change's highlighting, which the browser does once the page is interactive. The browser side
 * (time to interactive, scrolling) is measured by e2e/workspace-perf.spec.ts.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { DiffView, FIRST_SCREEN_ROWS } from "@/components/diff-view/diff-view";
import type { DiffSource } from "@/lib/diff";
import { buildFileModels } from "@/components/diff-view/model";
import { unifiedDiff } from "@/lib/diff";
import { formatTiming, measureAsync } from "./support/timing";

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
  for (let i = 0; i < 10; i++) render(fresh(), "unified");
  /** `fn` on a change never highlighted before, each run (made outside the timing). */
  const cold = (fn: (s: DiffSource) => unknown) => {
    let next = fresh();
    return measureAsync(async () => fn(next), runs, async () => void (next = fresh()));
  };
  const warm = (fn: () => unknown) => measureAsync(async () => fn(), runs);
  const coldModel = await cold((s) => buildFileModels(s, FIRST_SCREEN_ROWS));
  const coldWhole = await cold((s) => buildFileModels(s, Infinity));
  const coldUnified = await cold((s) => render(s, "unified"));
  const coldSplit = await cold((s) => render(s, "split"));
  render(source, "unified");
  buildFileModels(source, Infinity);
  const model = await warm(() => buildFileModels(source, FIRST_SCREEN_ROWS));
  const whole = await warm(() => buildFileModels(source, Infinity));
  const unified = await warm(() => render(source, "unified"));
  const split = await warm(() => render(source, "split"));
  const html = render(source, "unified");
  const f = formatTiming;
  console.log(`diff: ${lines} lines (${change.oldFile.split("\n").length - 1} -> ${change.newFile.split("\n").length - 1} file lines), highlight.js; the server render highlights the first ${FIRST_SCREEN_ROWS} rows`);
  console.log(`parse + highlight (model), cold: ${f(coldModel)}`);
  console.log(`server render, unified, cold:    ${f(coldUnified)}`);
  console.log(`server render, split, cold:      ${f(coldSplit)}`);
  console.log(`parse + highlight (model), warm: ${f(model)}`);
  console.log(`server render, unified, warm:    ${f(unified)}`);
  console.log(`server render, split, warm:      ${f(split)}`);
  console.log(`whole change highlighted (in the browser once interactive), cold: ${f(coldWhole)}; warm: ${f(whole)}`);
  console.log(`unified HTML: ${(html.length / 1024).toFixed(0)} KiB`);
}
