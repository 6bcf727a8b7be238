import { NextResponse } from "next/server";
import { LEAD_ROLES, requireApiAccount } from "@/lib/auth/session";
import { listStudiesWithCounts } from "@/lib/data/study-overview";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** The studies the signed-in lead leads (all for an admin), with their counts. */
export const GET = handler(async () => {
  const account = await requireApiAccount(LEAD_ROLES, "read");
  return NextResponse.json({ studies: await listStudiesWithCounts(account) });
});
