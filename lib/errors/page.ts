/** The error model on pages: NOT_FOUND shows Next's 404 page, FORBIDDEN its 403, UNAUTHENTICATED sends to sign-in. */
import { forbidden, notFound, redirect } from "next/navigation";
import { toAppError } from "@/lib/errors";

/** Awaits `work`; errors the model maps to a page outcome become it, others reach the error page. */
export async function orPageError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const app = toAppError(error);
    if (app.code === "NOT_FOUND") notFound();
    if (app.code === "FORBIDDEN") forbidden();
    if (app.code === "UNAUTHENTICATED") redirect("/signin");
    throw error;
  }
}

/** As orPageError, but LOCKED (423, e.g. a paused annotator) becomes its message for the page to show. */
export async function orLockedMessage<T>(work: Promise<T>): Promise<{ data: T } | { locked: string }> {
  return orPageError(
    work.then(
      (data) => ({ data }),
      (error) => {
        const app = toAppError(error);
        if (app.code === "LOCKED") return { locked: app.userMessage };
        throw error;
      },
    ),
  );
}
