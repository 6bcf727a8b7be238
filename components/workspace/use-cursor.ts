"use client";

import { useEffect, useRef, useState } from "react";
import type { ShortcutAction } from "@/lib/annotation/keymap";

/**
 * Index of the claim / review under the keyboard cursor, kept in view as it moves. It opens on
 * `initial` (the first unanswered one, lib/annotation/completeness). Moving on after the last
 * one's answer puts it past the end (index `count`), where answer keys find nothing to change:
 * a key pressed once too often never replaces the last answer. j stops at the last one; k from
 * past the end goes back to it.
 */
export function useCursor(count: number, onTarget: (index: number) => void, initial = 0) {
  const [cursor, setCursor] = useState(() => Math.max(0, Math.min(initial, count)));
  const items = useRef(new Map<number, HTMLElement>());
  const report = useRef(onTarget);
  useEffect(() => {
    report.current = onTarget;
  });
  useEffect(() => {
    items.current.get(cursor)?.scrollIntoView({ block: "nearest" });
    report.current(cursor);
  }, [cursor]);
  /** After an answer: the next one, or past the end after the last. */
  const moveOn = () => setCursor((c) => Math.min(count, c + 1));
  const register = (index: number) => (el: HTMLElement | null) => {
    if (el) items.current.set(index, el);
    else items.current.delete(index);
  };
  /** j/k moves to the next or previous one; false for any other shortcut. */
  const step = (action: ShortcutAction) => {
    if (action.type === "next-sub") setCursor((c) => (c >= count - 1 ? c : c + 1));
    else if (action.type === "prev-sub") setCursor((c) => Math.max(0, Math.min(c, count) - 1));
    else return false;
    return true;
  };
  const at = Math.min(cursor, count);
  return { cursor: at, atEnd: count > 0 && at === count, setCursor, moveOn, step, register };
}
