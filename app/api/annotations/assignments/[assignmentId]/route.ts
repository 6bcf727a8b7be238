import { NextResponse } from "next/server";
import { requireApiAccount } from "@/lib/auth/session";
import { assignmentFileSource, getStoredAnswers, getWorkspace } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * The workspace data of one of the signed-in account's own assignments (404 for anyone else's);
 * with `?part=answers` only what is stored now (status, time, answers), which the workspace
 * reconciles with after Back, forward or a change in another tab; with `?part=file&file=ID` one
 * file of the assignment's pull request (its diff and contents), which the pull-request
 * workspace loads as the file nears the screen.
 */
export const GET = handler(async (request: Request, context: { params: Promise<{ assignmentId: string }> }) => {
  const account = await requireApiAccount(undefined, "assign");
  const assignmentId = (await context.params).assignmentId;
  const params = new URL(request.url).searchParams;
  const part = params.get("part");
  if (part === "file") return NextResponse.json(await assignmentFileSource(account.id, assignmentId, params.get("file") ?? ""));
  return NextResponse.json(part === "answers" ? await getStoredAnswers(account.id, assignmentId) : await getWorkspace(account.id, assignmentId));
});
