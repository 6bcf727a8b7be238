import { NextResponse } from "next/server";
import { requireApiAccount } from "@/lib/auth/session";
import { submitAssignment } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";
import { announceSubmission } from "@/lib/webhooks/send";

export const dynamic = "force-dynamic";

/** Marks the account's own assignment done; 422 with what is missing when it is not complete. */
export const POST = handler(async (_request: Request, context: { params: Promise<{ assignmentId: string }> }) => {
  const account = await requireApiAccount(undefined, "assign");
  return NextResponse.json(await submitAssignment(account.id, (await context.params).assignmentId, announceSubmission));
});
