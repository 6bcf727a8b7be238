/** Runs once in each Next.js server process as it starts (Next's instrumentation hook). */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") (await import("@/lib/http/request-start")).observeRequests();
}
