import { NextResponse } from "next/server";
import { requireApiUser } from "@/lib/auth/session";
import { getStoredAnswers, getWorkspace } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * The workspace data of one of the signed-in user's own assignments (404 for anyone else's);
 * with `?part=answers` only what is stored now (status, time, answers), which the workspace
 * reconciles with after Back, forward or a change in another tab.
 */
export const GET = handler(async (request: Request, context: { params: Promise<{ assignmentId: string }> }) => {
  const user = await requireApiUser();
  const assignmentId = (await context.params).assignmentId;
  const answersOnly = new URL(request.url).searchParams.get("part") === "answers";
  return NextResponse.json(answersOnly ? await getStoredAnswers(user.id, assignmentId) : await getWorkspace(user.id, assignmentId));
});
