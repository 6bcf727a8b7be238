"use client";

import { useEffect, useRef, useState } from "react";
import type { ShortcutAction } from "@/lib/annotation/keymap";

/** Index of the claim / review under the keyboard cursor, kept in view as it moves. */
export function useCursor(count: number, onTarget: (index: number) => void) {
  const [cursor, setCursor] = useState(0);
  const items = useRef(new Map<number, HTMLElement>());
  const report = useRef(onTarget);
  useEffect(() => {
    report.current = onTarget;
  });
  useEffect(() => {
    items.current.get(cursor)?.scrollIntoView({ block: "nearest" });
    report.current(cursor);
  }, [cursor]);
  const move = (delta: number) => setCursor((c) => Math.max(0, Math.min(count - 1, c + delta)));
  const register = (index: number) => (el: HTMLElement | null) => {
    if (el) items.current.set(index, el);
    else items.current.delete(index);
  };
  /** j/k moves to the next or previous one; false for any other shortcut. */
  const step = (action: ShortcutAction) => {
    if (action.type !== "next-sub" && action.type !== "prev-sub") return false;
    move(action.type === "next-sub" ? 1 : -1);
    return true;
  };
  return { cursor: Math.min(cursor, Math.max(0, count - 1)), setCursor, move, step, register };
}
