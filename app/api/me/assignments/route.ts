import { NextResponse } from "next/server";
import { requireApiAccount } from "@/lib/auth/session";
import { listQueuesForAnnotator } from "@/lib/data/assignments";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** The signed-in account's own assignment queues. */
export const GET = handler(async () => {
  const account = await requireApiAccount(undefined, "assign");
  return NextResponse.json({ queues: await listQueuesForAnnotator(account.id) });
});
