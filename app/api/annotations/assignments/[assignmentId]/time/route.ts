import { NextResponse } from "next/server";
import { z } from "zod";
import { requireApiAccount } from "@/lib/auth/session";
import { MAX_TIME_REPORT_MS, recordTimeSpent } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

const body = z.object({
  deltaMs: z.number().min(0).max(MAX_TIME_REPORT_MS),
  targets: z.record(z.string().max(200), z.number().min(0).max(MAX_TIME_REPORT_MS)).optional(),
});

/** Adds active time (reported by the workspace every few seconds and on leaving the page). */
export const POST = handler(async (_request: Request, context: { params: Promise<{ assignmentId: string }> }, input) => {
  const account = await requireApiAccount();
  const { deltaMs, targets } = body.parse(input);
  return NextResponse.json(await recordTimeSpent(account.id, (await context.params).assignmentId, deltaMs, targets));
});
