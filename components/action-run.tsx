"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";

export type Action<T> = (input: unknown) => Promise<ActionResult<T>>;

/**
 * Runs a server action from a form or button: its outcome as a message, and after success
 * `after` (e.g. emptying the form) and the page refreshed. `submit` sends a form's fields.
 */
export function useRun() {
  const router = useRouter();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  const run = <T,>(fn: Action<T>, input: unknown, ok: string | ((data: T) => string), after?: () => void) =>
    start(async () => {
      const result = await fn(input);
      setMessage(result.ok ? { ok: true, text: typeof ok === "string" ? ok : ok(result.data) } : { ok: false, text: result.error });
      if (result.ok) {
        after?.();
        router.refresh();
      }
    });
  /** Sends the form's fields to `fn`; the form is emptied after success. */
  const submit = <T,>(fn: Action<T>, event: FormEvent<HTMLFormElement>, ok: string | ((data: T) => string)) => {
    event.preventDefault();
    const form = event.currentTarget;
    run(fn, Object.fromEntries(new FormData(form)), ok, () => form.reset());
  };
  return { message, pending, run, submit };
}
