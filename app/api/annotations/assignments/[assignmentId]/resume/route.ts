import { NextResponse } from "next/server";
import { requireApiUser } from "@/lib/auth/session";
import { resumeAssignment } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Takes a skipped assignment of the user back into work. */
export const POST = handler(async (_request: Request, context: { params: Promise<{ assignmentId: string }> }) => {
  const user = await requireApiUser();
  return NextResponse.json(await resumeAssignment(user.id, (await context.params).assignmentId));
});
