import { NextResponse } from "next/server";
import { requireApiAccount } from "@/lib/auth/session";
import { skipRequest } from "@/lib/validation/route-inputs";
import { skipAssignment } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Skips the account's own assignment with a reason. */
export const POST = handler(async (_request: Request, context: { params: Promise<{ assignmentId: string }> }, input) => {
  const account = await requireApiAccount(undefined, "assign");
  const { reason } = skipRequest.parse(input);
  return NextResponse.json(await skipAssignment(account.id, (await context.params).assignmentId, reason));
});
