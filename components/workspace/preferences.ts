"use client";

import { useState } from "react";

/** The annotator's own keyboard preference, kept in this browser per account. */
export interface KeyboardPreference {
  /** A digit sets the value and moves to the next question (dimension, claim or review). */
  digitsMoveOn: boolean;
}

const DEFAULT: KeyboardPreference = { digitsMoveOn: true };

const keyOf = (userId: string) => `crjudge:prefs:${userId}:keyboard`;

function read(userId: string): KeyboardPreference {
  try {
    const raw = typeof window === "undefined" ? null : window.localStorage.getItem(keyOf(userId));
    return raw ? { ...DEFAULT, ...(JSON.parse(raw) as Partial<KeyboardPreference>) } : DEFAULT;
  } catch {
    return DEFAULT;
  }
}

export function useKeyboardPreference(userId: string): [KeyboardPreference, (next: KeyboardPreference) => void] {
  const [preference, setPreference] = useState(() => read(userId));
  const save = (next: KeyboardPreference) => {
    setPreference(next);
    try {
      window.localStorage.setItem(keyOf(userId), JSON.stringify(next));
    } catch {
      // storage refused: the choice holds for this page
    }
  };
  return [preference, save];
}
