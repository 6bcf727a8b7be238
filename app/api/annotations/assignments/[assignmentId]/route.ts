import { NextResponse } from "next/server";
import { requireApiUser } from "@/lib/auth/session";
import { getWorkspace } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** The workspace data of one of the signed-in user's own assignments (404 for anyone else's). */
export const GET = handler(async (_request: Request, context: { params: Promise<{ assignmentId: string }> }) => {
  const user = await requireApiUser();
  return NextResponse.json(await getWorkspace(user.id, (await context.params).assignmentId));
});
