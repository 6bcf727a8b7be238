import { NextResponse } from "next/server";
import { requireApiAccount } from "@/lib/auth/session";
import { timeReport } from "@/lib/validation/route-inputs";
import { recordTimeSpent } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";


/** Adds active time (reported by the workspace every few seconds and on leaving the page). */
export const POST = handler(async (_request: Request, context: { params: Promise<{ assignmentId: string }> }, input) => {
  const account = await requireApiAccount(undefined, "assign");
  const { deltaMs, targets } = timeReport.parse(input);
  return NextResponse.json(await recordTimeSpent(account.id, (await context.params).assignmentId, deltaMs, targets));
});
