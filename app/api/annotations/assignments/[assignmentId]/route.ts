import { NextResponse } from "next/server";
import { requireApiAccount } from "@/lib/auth/session";
import { getStoredAnswers, getWorkspace } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * The workspace data of one of the signed-in account's own assignments (404 for anyone else's);
 * with `?part=answers` only what is stored now (status, time, answers), which the workspace
 * reconciles with after Back, forward or a change in another tab.
 */
export const GET = handler(async (request: Request, context: { params: Promise<{ assignmentId: string }> }) => {
  const account = await requireApiAccount();
  const assignmentId = (await context.params).assignmentId;
  const answersOnly = new URL(request.url).searchParams.get("part") === "answers";
  return NextResponse.json(answersOnly ? await getStoredAnswers(account.id, assignmentId) : await getWorkspace(account.id, assignmentId));
});
