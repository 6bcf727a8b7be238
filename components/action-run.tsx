"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";

export type Action<T> = (input: unknown) => Promise<ActionResult<T>>;

/** Runs a server action from a form: its outcome as a message, the page refreshed after success. */
export function useRun() {
  const router = useRouter();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  const run = <T,>(fn: Action<T>, input: unknown, ok: (data: T) => string) =>
    start(async () => {
      const result = await fn(input);
      setMessage(result.ok ? { ok: true, text: ok(result.data) } : { ok: false, text: result.error });
      if (result.ok) router.refresh();
    });
  return { message, pending, run };
}
