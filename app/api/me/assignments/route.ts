import { NextResponse } from "next/server";
import { requireApiUser } from "@/lib/auth/session";
import { listQueuesForAnnotator } from "@/lib/data/assignments";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** The signed-in user's own assignment queues. */
export const GET = handler(async () => {
  const user = await requireApiUser();
  return NextResponse.json({ queues: await listQueuesForAnnotator(user.id) });
});
