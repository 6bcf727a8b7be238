"use client";

import { useMemo, useSyncExternalStore } from "react";

/** The annotator's own workspace preferences, kept in this browser per account. */
export interface WorkspacePreference {
  /** A digit sets the value and moves to the next question (dimension, claim or review). */
  digitsMoveOn: boolean;
  /** The guidelines and codebook column stays open from item to item. */
  codebookPinned: boolean;
}

const DEFAULT: WorkspacePreference = { digitsMoveOn: true, codebookPinned: false };

const keyOf = (userId: string) => `crjudge:prefs:${userId}:workspace`;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

function readRaw(userId: string): string | null {
  try {
    return window.localStorage.getItem(keyOf(userId));
  } catch {
    return null;
  }
}

/** The preferences (the defaults while rendering on the server, so hydration matches) and a setter. */
export function useWorkspacePreference(userId: string): [WorkspacePreference, (next: WorkspacePreference) => void] {
  const raw = useSyncExternalStore(
    subscribe,
    () => readRaw(userId),
    () => null,
  );
  const preference = useMemo(() => {
    try {
      return raw ? { ...DEFAULT, ...(JSON.parse(raw) as Partial<WorkspacePreference>) } : DEFAULT;
    } catch {
      return DEFAULT;
    }
  }, [raw]);
  const save = (next: WorkspacePreference) => {
    try {
      window.localStorage.setItem(keyOf(userId), JSON.stringify(next));
    } catch {
      // storage refused: the choice is not kept
    }
    for (const l of listeners) l();
  };
  return [preference, save];
}
