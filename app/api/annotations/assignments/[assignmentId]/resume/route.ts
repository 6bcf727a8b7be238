import { NextResponse } from "next/server";
import { requireApiAccount } from "@/lib/auth/session";
import { resumeAssignment } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Takes a skipped assignment of the account back into work. */
export const POST = handler(async (_request: Request, context: { params: Promise<{ assignmentId: string }> }) => {
  const account = await requireApiAccount(undefined, "assign");
  return NextResponse.json(await resumeAssignment(account.id, (await context.params).assignmentId));
});
