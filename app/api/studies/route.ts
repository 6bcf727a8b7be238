import { NextResponse } from "next/server";
import { LEAD_ROLES, requireApiUser } from "@/lib/auth/session";
import { listStudiesWithCounts } from "@/lib/data/study-overview";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Studies with their counts, for leads. */
export const GET = handler(async () => {
  await requireApiUser(LEAD_ROLES);
  return NextResponse.json({ studies: await listStudiesWithCounts() });
});
