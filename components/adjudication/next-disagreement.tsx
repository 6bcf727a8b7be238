"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** The id of the link, focused after a save so that Enter (or the key n) moves on. */
export const NEXT_DISAGREEMENT_ID = "next-disagreement";

/** Whether a key press belongs to a text field (typing "n" in a reason must not navigate). */
function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) && !(target instanceof HTMLInputElement && ["radio", "checkbox"].includes(target.type));
}

/**
 * The link to the next open disagreement, also reached with the key n (outside text fields);
 * or, when none is left, a plain statement with the way back to the list.
 */
export function NextDisagreement({ next, back }: { next: { href: string; label: string } | null; back: { href: string; label: string } }) {
  const router = useRouter();
  useEffect(() => {
    if (!next) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "n" || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      e.preventDefault();
      router.push(next.href);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [next, router]);
  if (!next) {
    return (
      <p className="text-sm text-slate-600" data-testid="next-disagreement">
        No other disagreement is open.{" "}
        <Link href={back.href} className="text-blue-700 hover:underline">
          {back.label}
        </Link>
      </p>
    );
  }
  return (
    <p className="text-sm">
      <Link id={NEXT_DISAGREEMENT_ID} href={next.href} aria-keyshortcuts="n" className="rounded border border-blue-700 px-2 py-1 text-blue-700 hover:bg-blue-50 focus:bg-blue-50" data-testid="next-disagreement">
        Next disagreement: {next.label} →
      </Link>{" "}
      <span className="text-xs text-slate-500">
        or press <kbd className="rounded border border-slate-300 px-1">n</kbd>
      </span>
    </p>
  );
}
