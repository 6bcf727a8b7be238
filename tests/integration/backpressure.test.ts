/**
 * Backpressure, not failures: when every connection of the pool stays busy for the
 * whole wait, a save answers 503 with Retry-After (nothing written, safe to retry), never 500.
 * A real PostgreSQL, a real pool of one connection held by a slow query, the real save path and
 * the one HTTP error mapping.
 */
import { afterAll, beforeAll, describe, expect, inject, test, vi } from "vitest";
import { createClient } from "@/lib/db/client";
import type { SaveRequest } from "@/lib/annotation/values";
import { errorResponse } from "@/lib/http/respond";
import { asLead, asAccount, createAnnotationFixture, removeAnnotationFixture, type AnnotationFixture } from "./annotation-fixture";

const url = inject("databaseUrl");
process.env.DATABASE_URL = url;
const setup = createClient(url);
// The data layer's `db` and `sql`, from the settings: one connection, given up after 300 ms of waiting for it.
process.env.CRJUDGE_DB_POOL_SIZE = "1";
process.env.CRJUDGE_DB_POOL_WAIT_MS = "300";
const { db: tiny } = await import("@/lib/db/client");
// The integration files share one process: a pool an earlier file made is replaced by one with these settings.
await tiny.$disconnect();
const { saveAnnotation } = await import("@/lib/data/annotations");
const { generateAssignments } = await import("@/lib/data/assignment-admin");

let fx: AnnotationFixture;
let claimRequest: SaveRequest;
let ratingRequest: SaveRequest;
beforeAll(async () => {
  fx = await createAnnotationFixture(setup, `bp${Date.now()}`);
  await generateAssignments(asLead(fx), fx.slug, [fx.accounts.ann1, fx.accounts.ann2]);
  const own = (task: "CLAIM_VERIFICATION" | "REVIEW_RATING") => setup.assignment.findFirstOrThrow({ where: { annotatorId: fx.accounts.ann1, task }, orderBy: { position: "asc" } });
  const claim = await own("CLAIM_VERIFICATION");
  const change = fx.changes.find((c) => c.id === claim.codeChangeId)!;
  claimRequest = { kind: "judgement", assignmentId: claim.id, targetId: change.claims[0], baseVersion: 0, value: { code: "CORRECT", necessary: null, errorType: null, note: "" } };
  const rating = await own("REVIEW_RATING");
  ratingRequest = { kind: "rating", assignmentId: rating.id, targetId: fx.changes.find((c) => c.id === rating.codeChangeId)!.reviews[0], baseVersion: 0, value: { scores: { conciseness: 4 }, links: [], comment: "" } };
});
afterAll(async () => {
  await removeAnnotationFixture(setup, fx);
  await Promise.all([setup.$disconnect(), tiny.$disconnect()]);
  delete process.env.CRJUDGE_DB_POOL_SIZE;
  delete process.env.CRJUDGE_DB_POOL_WAIT_MS;
});

/** What the save route answers: the save's JSON, or the one error mapping's response. */
async function answer(request: SaveRequest): Promise<{ status: number; retryAfter: string | null; body: Record<string, unknown> }> {
  try {
    return { status: 200, retryAfter: null, body: (await saveAnnotation(asAccount(fx.accounts.ann1), request)) as never };
  } catch (error) {
    const response = errorResponse(error);
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Record<string, unknown> };
  }
}

describe("a saturated pool", () => {
  test("answers 503 with Retry-After for the one-statement save and the transaction save; after it drains the same saves succeed", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      // Holds the only connection for 1.5 s, as a burst of slow requests would.
      const hold = tiny.$transaction((tx) => tx.$queryRawUnsafe("SELECT 1 FROM pg_sleep(1.5)"), { timeout: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const [claim, rating] = await Promise.all([answer(claimRequest), answer(ratingRequest)]);
      for (const busy of [claim, rating]) {
        expect(busy.status).toBe(503);
        expect(busy.retryAfter).toBe("1");
        expect(busy.body).toMatchObject({ code: "UNAVAILABLE", error: "The server is busy; nothing was saved. Retrying shortly is safe." });
      }
      expect(await setup.claimJudgement.count({ where: { annotatorId: fx.accounts.ann1 } })).toBe(0);
      await hold;

      expect((await answer(claimRequest)).body).toMatchObject({ version: 1, changed: true });
      expect((await answer(ratingRequest)).body).toMatchObject({ version: 1, changed: true });
    } finally {
      log.mockRestore();
    }
  });
});
