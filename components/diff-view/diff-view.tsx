"use client";

/**
 * Diff view shared by all annotation tasks: unified or split, line numbers, highlighted code,
 * expandable context from the old/new file, and a file list when a change has several files.
 * Rows are plain elements with pre-highlighted HTML (no component per line or per token), in
 * chunks with `content-visibility: auto` so the browser lays out only what is on screen: a
 * 2,000-line diff stays fast without windowing, and find-in-page still sees every line.
 */
import { Fragment, memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { HIGHLIGHT_CSS } from "./highlight";
import type { DiffSource } from "@/lib/diff";
import { buildFileModels, splitRows, unifiedRows, type Expansion, type FileModel, type LineRow, type SplitRow, type UnifiedRow } from "./model";

export type DiffMode = "unified" | "split";

/** Lines per chunk: the browser lays out a chunk whole once any of it nears the screen, so a j press that scrolls a screen lays out at most a chunk beyond it. */
const CHUNK = 40;
/** Rows highlighted in the server render and hydration (a screen in either layout); the rest when the browser is idle. */
export const FIRST_SCREEN_ROWS = 100;
const ROW_PX = 20;
const EXPAND_STEP = 20;

export const DIFF_CSS = `${HIGHLIGHT_CSS}
.dv{font:12px/20px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.dv-chunk{content-visibility:auto}
.dv-r{display:grid;grid-template-columns:3.5em 3.5em 1.2em minmax(0,1fr)}
.dv-s{display:grid;grid-template-columns:3.5em 1.2em minmax(0,1fr) 3.5em 1.2em minmax(0,1fr)}
.dv-n{color:#475569;text-align:right;padding-right:.5em;user-select:none;background:#f8fafc}
.dv-m{text-align:center;user-select:none;color:#64748b}
.dv-c{white-space:pre-wrap;word-break:break-all;padding-right:.5em;min-height:20px}
.dv-add{background:#ecfdf5}.dv-add .dv-n{background:#d1fae5}
.dv-del{background:#fef2f2}.dv-del .dv-n{background:#fee2e2}
.dv-x{background:#fafafa}
.dv-e{background:#f1f5f9}
.dv-h{background:#eff6ff;color:#475569;padding:0 .5em}
.dv-g{display:flex;gap:.75em;align-items:center;background:#eff6ff;color:#334155;padding:0 .5em}
.dv-g button{color:#1d4ed8;text-decoration:underline}
.dv-cm>.dv-c,.dv-cm.dv-c{box-shadow:inset 3px 0 #f59e0b}
.dv-cf>.dv-c,.dv-cf.dv-c{box-shadow:inset 3px 0 #b45309;background:#fef3c7}`;

function cls(kind: LineRow["kind"]): string {
  return kind === "add" ? "dv-add" : kind === "del" ? "dv-del" : "";
}

const MARK = { add: "+", del: "-", context: " " } as const;

export function GapRow({ row, onExpand }: { row: Extract<UnifiedRow, { type: "gap" }>; onExpand: (id: string, change: Partial<Expansion> | "all") => void }) {
  return (
    <div className="dv-g" data-testid="diff-gap">
      <span>⋯ {row.hidden} unchanged lines</span>
      {row.expandable && (
        <>
          {row.position !== "start" && (
            <button type="button" onClick={() => onExpand(row.id, { top: EXPAND_STEP })}>
              ↓ show {Math.min(EXPAND_STEP, row.hidden)}
            </button>
          )}
          {row.position !== "end" && (
            <button type="button" onClick={() => onExpand(row.id, { bottom: EXPAND_STEP })}>
              ↑ show {Math.min(EXPAND_STEP, row.hidden)}
            </button>
          )}
          <button type="button" onClick={() => onExpand(row.id, "all")}>
            show all
          </button>
        </>
      )}
    </div>
  );
}

const num = (n: number | null) => (n === null ? "" : String(n));

/**
 * The review comments' ranges a line is in, as keys without spaces (the pull-request view's
 * threads); none for most lines. Such a line is marked ("dv-cm") and carries the keys
 * (`data-cm`), by which FileBody marks the focused range's lines ("dv-cf") in place.
 */
export type LineMark = (line: LineRow, side: "left" | "right") => readonly string[];
const NO_RANGES: readonly string[] = [];
const noMark: LineMark = () => NO_RANGES;

/** The attributes of a line in some ranges. */
const rangeAttributes = (ranges: readonly string[]) => (ranges.length === 0 ? "" : ` dv-cm" data-cm="${ranges.join(" ")}`);

/** A row as HTML (the code is already escaped and highlighted by the model). */
function unifiedLineHtml(row: Extract<UnifiedRow, { type: "line" }>, mark: LineMark): string {
  const { kind, oldNo, newNo, html } = row.row;
  const c = row.expanded ? "dv-e" : cls(kind);
  // A context line is on both sides; its ranges are either side's.
  const right = kind === "del" ? NO_RANGES : mark(row.row, "right");
  const ranges = kind === "add" || right.length > 0 ? right : mark(row.row, "left");
  return `<div class="dv-r ${c}${rangeAttributes(ranges)}"><span class="dv-n">${num(oldNo)}</span><span class="dv-n">${num(newNo)}</span><span class="dv-m">${MARK[kind]}</span><span class="dv-c">${html}</span></div>`;
}

function halfHtml(line: LineRow | null, ranges: readonly string[], side: "left" | "right", expanded?: boolean): string {
  if (!line) return `<span class="dv-n dv-x"></span><span class="dv-m dv-x"></span><span class="dv-c dv-x"></span>`;
  const c = expanded ? "dv-e" : cls(line.kind);
  return `<span class="dv-n ${c}">${num(side === "left" ? line.oldNo : line.newNo)}</span><span class="dv-m ${c}">${MARK[line.kind]}</span><span class="dv-c ${c}${rangeAttributes(ranges)}">${line.html}</span>`;
}

function splitLineHtml(row: Extract<SplitRow, { type: "pair" }>, mark: LineMark): string {
  const left = row.left ? mark(row.left, "left") : NO_RANGES;
  const right = row.right ? mark(row.right, "right") : NO_RANGES;
  return `<div class="dv-s">${halfHtml(row.left, left, "left", row.expanded)}${halfHtml(row.right, right, "right", row.expanded)}</div>`;
}

/** Where something is shown between the lines (the pull-request view's comment threads): the key of what follows a row, or null. */
export type AnchorAfter = (row: UnifiedRow | SplitRow) => string | null;

export type Block = { type: "lines"; html: string; count: number } | { type: "anchor"; key: string } | Exclude<UnifiedRow, { type: "line" }>;

/**
 * Runs of code lines become one HTML string per chunk (no React element per line: a 2,000-line
 * diff is a few dozen elements to render and hydrate); headers and the interactive gap rows
 * stay React elements between the chunks. The chunks do not depend on the focused comment
 * (FileBody marks the focused range's lines in place), so moving the focus re-renders none.
 */
export function toBlocks(rows: (UnifiedRow | SplitRow)[], mode: DiffMode, mark: LineMark = noMark, anchorAfter?: AnchorAfter): Block[] {
  const blocks: Block[] = [];
  let html = "";
  let count = 0;
  const flush = () => {
    if (count > 0) blocks.push({ type: "lines", html, count });
    html = "";
    count = 0;
  };
  for (const row of rows) {
    if (row.type === "line" || row.type === "pair") {
      html += mode === "unified" ? unifiedLineHtml(row as Extract<UnifiedRow, { type: "line" }>, mark) : splitLineHtml(row as Extract<SplitRow, { type: "pair" }>, mark);
      count++;
      const anchor = anchorAfter?.(row) ?? null;
      if (anchor !== null) {
        flush();
        blocks.push({ type: "anchor", key: anchor });
      } else if (count === CHUNK) flush();
    } else {
      flush();
      blocks.push(row);
    }
  }
  flush();
  return blocks;
}

/** What a file's rows carry besides the code: the ranges' lines, the focused range, and blocks between rows rendered by `renderAnchor`. */
export interface RowExtras {
  mark?: LineMark;
  /** The key of the range whose lines are marked as focused ("dv-cf"), or null. */
  focusedRange?: string | null;
  anchorAfter?: AnchorAfter;
  renderAnchor?: (key: string) => ReactNode;
}

export const FileBody = memo(function FileBody({ file, mode, expansions, onExpand, mark, focusedRange = null, anchorAfter, renderAnchor }: { file: FileModel; mode: DiffMode; expansions: Record<string, Expansion>; onExpand: (id: string, change: Partial<Expansion> | "all") => void } & RowExtras) {
  const blocks = useMemo(() => toBlocks(mode === "unified" ? unifiedRows(file, expansions) : splitRows(file, expansions), mode, mark, anchorAfter), [file, mode, expansions, mark, anchorAfter]);
  // The focused range's lines get their class in place: setting the chunks' HTML again would
  // parse and lay out their lines anew at every move of the focus.
  const body = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (focusedRange === null || !body.current) return;
    const lines = body.current.querySelectorAll(`[data-cm~="${CSS.escape(focusedRange)}"]`);
    lines.forEach((line) => line.classList.add("dv-cf"));
    return () => lines.forEach((line) => line.classList.remove("dv-cf"));
  }, [focusedRange, blocks]);
  return (
    <div ref={body} data-testid="diff-body" data-mode={mode}>
      {blocks.map((block, i) =>
        block.type === "lines" ? (
          <div key={i} className="dv-chunk" style={{ containIntrinsicSize: `auto ${block.count * ROW_PX}px` }} dangerouslySetInnerHTML={{ __html: block.html }} />
        ) : block.type === "header" ? (
          <div key={i} className="dv-h">
            {block.text}
          </div>
        ) : block.type === "anchor" ? (
          <Fragment key={`a:${block.key}`}>{renderAnchor?.(block.key)}</Fragment>
        ) : (
          <GapRow key={i} row={block} onExpand={onExpand} />
        ),
      )}
    </div>
  );
});

/** Runs `run` once the browser is idle (at the latest after `timeoutMs`), or after 50 ms where it has no idle callbacks; returns the cancel. */
export function whenIdle(run: () => void, timeoutMs: number): () => void {
  if (typeof window.requestIdleCallback !== "function") {
    const timer = window.setTimeout(run, 50);
    return () => window.clearTimeout(timer);
  }
  const idle = window.requestIdleCallback(run, { timeout: timeoutMs });
  return () => window.cancelIdleCallback(idle);
}

/** The file models of some sources: the first screen highlighted at once, the whole once the browser is idle (a 2,000-line file takes tens of ms). */
export function useFileModels(sources: DiffSource[]): FileModel[] {
  const [wholeFor, setWholeFor] = useState<DiffSource[] | null>(null);
  const whole = wholeFor === sources;
  const files = useMemo(() => sources.flatMap((source) => buildFileModels(source, whole ? Infinity : FIRST_SCREEN_ROWS)), [sources, whole]);
  const partial = files.some((f) => f.partial);
  useEffect(() => (partial ? whenIdle(() => setWholeFor(sources), 2000) : undefined), [partial, sources]);
  return files;
}

/** Expanded context per gap, with the handler of the gaps' buttons; `initial` opens some gaps from the start. */
export function useExpansions(initial: Record<string, Expansion> = {}) {
  const [expansions, setExpansions] = useState<Record<string, Expansion>>(initial);
  const onExpand = useCallback(
    (id: string, change: Partial<Expansion> | "all") =>
      setExpansions((all) => {
        const current = all[id] ?? { top: 0, bottom: 0 };
        const next = change === "all" ? { top: Number.MAX_SAFE_INTEGER, bottom: 0 } : { top: current.top + (change.top ?? 0), bottom: current.bottom + (change.bottom ?? 0) };
        return { ...all, [id]: next };
      }),
    [],
  );
  return { expansions, onExpand };
}

/** `mode` may be controlled by the parent (the workspace's `v` key) or left to the view. */
export function DiffView({ sources, mode: controlled, onModeChange }: { sources: DiffSource[]; mode?: DiffMode; onModeChange?: (mode: DiffMode) => void }) {
  const [own, setOwn] = useState<DiffMode>("unified");
  const mode = controlled ?? own;
  const changeMode = (m: DiffMode) => {
    setOwn(m);
    onModeChange?.(m);
  };
  const files = useFileModels(sources);
  const { expansions, onExpand } = useExpansions();
  return (
    <section className="dv rounded border border-slate-200 bg-white" aria-label="Code change">
      <style>{DIFF_CSS}</style>
      <div className="flex items-center gap-2 border-b border-slate-200 px-2 py-1 font-sans text-xs text-slate-600">
        <span>
          {files.length} file{files.length === 1 ? "" : "s"}
        </span>
        <span className="ml-auto" role="group" aria-label="Diff layout">
          {(["unified", "split"] as const).map((m) => (
            <button key={m} type="button" aria-pressed={mode === m} onClick={() => changeMode(m)} className={`rounded px-2 py-0.5 ${mode === m ? "bg-slate-800 text-white" : "hover:bg-slate-100"}`}>
              {m}
            </button>
          ))}
        </span>
      </div>
      {files.length > 1 && (
        <nav aria-label="Files" className="border-b border-slate-200 px-2 py-1 font-sans text-xs">
          <ul className="flex flex-col gap-0.5">
            {files.map((file) => (
              <li key={file.key}>
                <a href={`#diff-file-${file.key}`} className="font-mono text-blue-700 hover:underline">
                  {file.path || "(unnamed)"}
                </a>{" "}
                <span className="text-emerald-700">+{file.additions}</span> <span className="text-red-700">−{file.deletions}</span>
                {file.primary && <span className="ml-1 rounded bg-amber-100 px-1 text-amber-800">under annotation</span>}
              </li>
            ))}
          </ul>
        </nav>
      )}
      {files.map((file) => (
        <div key={file.key} id={`diff-file-${file.key}`} data-testid="diff-file" data-highlighted={file.partial ? "first-screen" : "whole"} className="border-b border-slate-200 last:border-b-0">
          <div className="flex gap-2 bg-slate-100 px-2 font-sans text-xs text-slate-700">
            <span className="font-mono font-medium">{file.path || "(unnamed)"}</span>
            <span className="text-emerald-700">+{file.additions}</span>
            <span className="text-red-700">−{file.deletions}</span>
          </div>
          {file.error ? (
            <p role="alert" className="px-2 text-red-700">
              This diff cannot be read: {file.error}
            </p>
          ) : (
            <FileBody file={file} mode={mode} expansions={expansions} onExpand={onExpand} />
          )}
        </div>
      ))}
    </section>
  );
}
