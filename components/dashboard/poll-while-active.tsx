"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Re-renders the server page every `seconds` while `active` (a metric run is queued or running). */
export function PollWhileActive({ active, seconds }: { active: boolean; seconds: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), seconds * 1000);
    return () => clearInterval(timer);
  }, [active, seconds, router]);
  return active ? (
    <p className="text-xs text-slate-500" data-testid="polling">
      Updating every {seconds} s while a run is in progress…
    </p>
  ) : null;
}
