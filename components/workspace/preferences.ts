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

const keyOf = (accountId: string) => `crjudge:prefs:${accountId}:workspace`;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

function readRaw(accountId: string): string | null {
  try {
    return window.localStorage.getItem(keyOf(accountId));
  } catch {
    return null;
  }
}

/** The preferences (the defaults while rendering on the server, so hydration matches) and a setter. */
export function useWorkspacePreference(accountId: string): [WorkspacePreference, (next: WorkspacePreference) => void] {
  const raw = useSyncExternalStore(
    subscribe,
    () => readRaw(accountId),
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
      window.localStorage.setItem(keyOf(accountId), JSON.stringify(next));
    } catch {
      // storage refused: the choice is not kept
    }
    for (const l of listeners) l();
  };
  return [preference, save];
}
