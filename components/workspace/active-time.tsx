"use client";

import { useEffect, useSyncExternalStore, type RefObject } from "react";
import { formatDuration } from "@/components/format";
import { MAX_TIME_REPORT_MS } from "@/lib/annotation/values";

/** The active time shown for an item, ticking; only its display re-renders each second. */
export class ActiveClock {
  private listeners = new Set<() => void>();
  constructor(private ms: number) {}
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = () => this.ms;
  add(ms: number) {
    this.ms += ms;
    for (const l of this.listeners) l();
  }
  /** A stored total above the page's own (time reported by an older copy of the page) catches up. */
  catchUp(storedMs: number) {
    if (storedMs > this.ms) this.add(storedMs - this.ms);
  }
}

export function TimeOnTask({ clock }: { clock: ActiveClock }) {
  const ms = useSyncExternalStore(clock.subscribe, clock.getSnapshot, clock.getSnapshot);
  return (
    <span data-testid="time-on-task" data-ms={ms} title="Active time on this item: counted while this tab is visible and you were active in the last minute" className="inline-block min-w-[7rem] tabular-nums">
      {formatDuration(ms)} on task
    </span>
  );
}

/** Without a key press, click, scroll or wheel for this long the annotator counts as away (idle). */
const IDLE_AFTER_MS = 60_000;

/**
 * Time on task: counts each second while the page is visible and the annotator active (input
 * within IDLE_AFTER_MS), shows it ticking (on `clock`, from the stored time on) and
 * reports it every 15 s and on leaving, per assignment and per claim or review under the cursor.
 */
export function useActiveTime(assignmentId: string, clock: ActiveClock, target: RefObject<string | null>, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const url = `/api/annotations/assignments/${assignmentId}/time`;
    let pending = 0;
    let targets: Record<string, number> = {};
    let lastInput = Date.now();
    const onInput = () => {
      lastInput = Date.now();
    };
    const tick = window.setInterval(() => {
      if (document.visibilityState !== "visible" || Date.now() - lastInput > IDLE_AFTER_MS) return;
      pending += 1000;
      clock.add(1000);
      if (target.current) targets[target.current] = (targets[target.current] ?? 0) + 1000;
    }, 1000);
    const send = (leaving: boolean) => {
      if (pending === 0) return;
      const body = JSON.stringify({ deltaMs: Math.min(pending, MAX_TIME_REPORT_MS), targets });
      const [sentPending, sentTargets] = [pending, targets];
      pending = 0;
      targets = {};
      if (leaving && typeof navigator.sendBeacon === "function" && navigator.sendBeacon(url, new Blob([body], { type: "application/json" }))) return;
      fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body, keepalive: true })
        .then((r) => {
          if (!r.ok) throw new Error(String(r.status));
        })
        .catch(() => {
          // kept for the next report
          pending += sentPending;
          for (const [k, v] of Object.entries(sentTargets)) targets[k] = (targets[k] ?? 0) + v;
        });
    };
    const report = window.setInterval(() => send(false), 15_000);
    const onHide = () => {
      if (document.visibilityState === "hidden") send(true);
      else lastInput = Date.now(); // coming back to the tab is activity
    };
    const onPageHide = () => send(true);
    window.addEventListener("keydown", onInput, true);
    window.addEventListener("pointerdown", onInput, true);
    window.addEventListener("wheel", onInput, { capture: true, passive: true });
    window.addEventListener("scroll", onInput, { capture: true, passive: true });
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.clearInterval(tick);
      window.clearInterval(report);
      window.removeEventListener("keydown", onInput, true);
      window.removeEventListener("pointerdown", onInput, true);
      window.removeEventListener("wheel", onInput, true);
      window.removeEventListener("scroll", onInput, true);
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", onPageHide);
      send(false);
    };
  }, [assignmentId, clock, target, enabled]);
}

