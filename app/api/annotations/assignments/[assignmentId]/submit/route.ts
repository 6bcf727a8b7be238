import { NextResponse } from "next/server";
import { requireApiUser } from "@/lib/auth/session";
import { submitAssignment } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Marks the user's own assignment done; 422 with what is missing when it is not complete. */
export const POST = handler(async (_request: Request, context: { params: Promise<{ assignmentId: string }> }) => {
  const user = await requireApiUser();
  return NextResponse.json(await submitAssignment(user.id, (await context.params).assignmentId));
});
