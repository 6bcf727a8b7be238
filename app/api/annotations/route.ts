import { NextResponse } from "next/server";
import { requireApiSessionClaims } from "@/lib/auth/session";
import { saveAnnotation } from "@/lib/data/annotations";
import { handler } from "@/lib/http/respond";
import { saveRequest } from "@/lib/annotation/value-schemas";

export const dynamic = "force-dynamic";

/**
 * Saves one annotation of the signed-in account's own assignment (the account is checked inside the
 * save, which spares the common save a round trip). 200 with the new version;
 * 409 with both values when the save was based on a stale version (nothing is overwritten).
 */
export const POST = handler(async (_request: Request, _context, input) => {
  const session = await requireApiSessionClaims("assign");
  const body = saveRequest.parse(input);
  return NextResponse.json(await saveAnnotation(session, body));
});
