"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";

/** The study's CRScore stage-order setting: stage 2 of an item opens only once its stage 1 is consolidated. */
export function StageOrderToggle({ slug, on, save }: { slug: string; on: boolean; save: (input: unknown) => Promise<ActionResult<{ on: boolean }>> }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        checked={on}
        disabled={pending}
        onChange={(e) => {
          const next = e.target.checked;
          start(async () => {
            const result = await save({ slug, on: next });
            setError(result.ok ? null : result.error);
            if (result.ok) router.refresh();
          });
        }}
      />
      Stage order: review rating of an item opens only after its claim verification is consolidated (CRScore §4.2)
      {error && (
        <span role="alert" className="text-red-700">
          {error}
        </span>
      )}
    </label>
  );
}
