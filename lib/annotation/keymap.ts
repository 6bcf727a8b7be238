/**
 * Keyboard map of the annotation workspace, as a pure function from a key press (and a pending
 * prefix) to an action, so it can be tested without a browser. Rules:
 * - Ctrl/Cmd+Enter submits everywhere, also inside a text box;
 * - inside a text box only Escape (leave the box) is handled: single-key shortcuts never fire
 *   while the annotator types;
 * - other combinations with Ctrl, Cmd or Alt are left to the browser;
 * - "-" then a digit types a negative claim code (-1 unverifiable, -2 incomplete, as in the
 *   CRScore sheets), "e" then a digit picks an error type;
 * - a key answers the question the annotator sees marked; answering the last one with moving
 *   on leaves the cursor past the end, where answer keys do nothing.
 */
export type ShortcutAction =
  | { type: "submit" }
  | { type: "leave-field" }
  | { type: "escape" }
  | { type: "help" }
  | { type: "guidelines" }
  | { type: "next-sub" }
  | { type: "prev-sub" }
  | { type: "next-field" }
  | { type: "prev-field" }
  | { type: "next-item" }
  | { type: "digit"; value: number }
  | { type: "error-type"; key: number }
  | { type: "necessity"; necessary: boolean }
  | { type: "note" }
  | { type: "add-claim" }
  | { type: "correct-claim" }
  | { type: "toggle-address" }
  | { type: "toggle-partial" }
  | { type: "skip" }
  | { type: "toggle-diff-mode" };

export type KeyPrefix = "" | "-" | "e";

export interface KeyInput {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** The event target is a text input, textarea, select or contenteditable element. */
  inTextField?: boolean;
}

export interface KeyResult {
  action: ShortcutAction | null;
  prefix: KeyPrefix;
}

const SINGLE: Record<string, ShortcutAction> = {
  "?": { type: "help" },
  g: { type: "guidelines" },
  j: { type: "next-sub" },
  ArrowDown: { type: "next-sub" },
  k: { type: "prev-sub" },
  ArrowUp: { type: "prev-sub" },
  l: { type: "next-field" },
  ArrowRight: { type: "next-field" },
  h: { type: "prev-field" },
  ArrowLeft: { type: "prev-field" },
  n: { type: "next-item" },
  y: { type: "necessity", necessary: true },
  u: { type: "necessity", necessary: false },
  m: { type: "note" },
  a: { type: "add-claim" },
  r: { type: "correct-claim" },
  x: { type: "toggle-address" },
  " ": { type: "toggle-address" },
  p: { type: "toggle-partial" },
  s: { type: "skip" },
  v: { type: "toggle-diff-mode" },
  Escape: { type: "escape" },
};

export function resolveKey(input: KeyInput, prefix: KeyPrefix = ""): KeyResult {
  const { key } = input;
  if (key === "Enter" && (input.ctrlKey || input.metaKey)) return { action: { type: "submit" }, prefix: "" };
  if (input.inTextField) return { action: key === "Escape" ? { type: "leave-field" } : null, prefix: "" };
  if (input.ctrlKey || input.metaKey || input.altKey) return { action: null, prefix };
  if (prefix === "-") {
    if (key === "1" || key === "2") return { action: { type: "digit", value: -Number(key) }, prefix: "" };
    return { action: null, prefix: "" };
  }
  if (prefix === "e") {
    if (/^[0-5]$/.test(key)) return { action: { type: "error-type", key: Number(key) }, prefix: "" };
    return { action: null, prefix: "" };
  }
  if (key === "-") return { action: null, prefix: "-" };
  if (key === "e") return { action: null, prefix: "e" };
  if (/^[0-9]$/.test(key)) return { action: { type: "digit", value: Number(key) }, prefix: "" };
  return { action: SINGLE[key] ?? null, prefix: "" };
}

/**
 * The Likert score a digit key gives on a scale from `min` to `max`, or null when it gives none.
 * A scale whose top is 10 has no key of its own for 10, so "0" types it when 0 is not on the scale.
 */
export function likertFromDigit(digit: number, min: number, max: number): number | null {
  if (digit >= min && digit <= max) return digit;
  if (digit === 0 && max === 10) return 10;
  return null;
}

/** Elements in which single-key shortcuts must not fire. */
export function isTextField(target: { tagName?: string; isContentEditable?: boolean; type?: string } | null): boolean {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  const type = (target.type ?? "text").toLowerCase();
  return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(type);
}

export interface ShortcutHelp {
  keys: string[];
  /** The keys are pressed one after the other (a prefix), not alternatives. */
  sequence?: boolean;
  description: string;
}

/** What the `?` overlay lists first in every task; each task's own shortcuts follow (its descriptor's `shortcuts`, lib/tasks), then COMMON_SHORTCUTS. */
export const MOVING_SHORTCUTS: readonly ShortcutHelp[] = [
  { keys: ["j", "↓"], description: "Next claim / review / review comment (across the pull request's files)" },
  { keys: ["k", "↑"], description: "Previous claim / review / review comment" },
  { keys: ["n"], description: "Next open item in my queue (items waiting for a round or a consolidation are skipped)" },
  { keys: ["Ctrl/⌘ + Enter"], description: "Submit this item (also inside a text box); a refused submit names what is missing and shows the first" },
];

/** What the `?` overlay lists last in every task. */
export const COMMON_SHORTCUTS: readonly ShortcutHelp[] = [
  { keys: ["m"], description: "Write a note / comment / justification" },
  { keys: ["Esc"], description: "Leave the text box (what you typed stays, kept in this browser until saved), close a panel" },
  { keys: ["s"], description: "Skip this item (with a reason)" },
  { keys: ["v"], description: "Diff: unified / split" },
  { keys: ["g"], description: "Show / hide the guidelines" },
  { keys: ["?"], description: "Show / hide this list" },
];

/** The keys of a pull request's view (its comments in place, a lead's preview of them). */
export const PULL_REQUEST_SHORTCUTS: readonly ShortcutHelp[] = [
  { keys: ["j", "↓"], description: "Next review comment, across files (its file scrolls into view)" },
  { keys: ["k", "↑"], description: "Previous review comment" },
  { keys: ["v"], description: "Diff: unified / split" },
  { keys: ["?"], description: "Show / hide this list" },
];
