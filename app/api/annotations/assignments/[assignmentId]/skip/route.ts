import { NextResponse } from "next/server";
import { z } from "zod";
import { requireApiAccount } from "@/lib/auth/session";
import { skipAssignment } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

const body = z.object({ reason: z.string().trim().min(3, "Give a reason for skipping (at least 3 characters).").max(1000) });

/** Skips the account's own assignment with a reason. */
export const POST = handler(async (_request: Request, context: { params: Promise<{ assignmentId: string }> }, input) => {
  const account = await requireApiAccount();
  const { reason } = body.parse(input);
  return NextResponse.json(await skipAssignment(account.id, (await context.params).assignmentId, reason));
});
