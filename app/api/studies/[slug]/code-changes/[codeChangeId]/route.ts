import { NextResponse } from "next/server";
import { LEAD_ROLES, requireApiAccount } from "@/lib/auth/session";
import { requireLedCodeChangeSource } from "@/lib/data/pull-requests";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** A code change's diff and old and new contents (the diff view's source), for the lead's pull-request page and item preview, which load a file's as it nears the screen. */
export const GET = handler(async (_request: Request, context: { params: Promise<{ slug: string; codeChangeId: string }> }) => {
  const account = await requireApiAccount(LEAD_ROLES, "read");
  const { slug, codeChangeId } = await context.params;
  return NextResponse.json(await requireLedCodeChangeSource(account, slug, codeChangeId));
});
