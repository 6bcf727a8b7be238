import { NextResponse } from "next/server";
import { pingDatabase } from "@/lib/data/health";

export const dynamic = "force-dynamic";

/**
 * Liveness and database reachability for anyone, so it says no more than that: 200
 * {"status":"ok"} or 503 {"status":"unavailable"}; why the database is unreachable (host,
 * port, driver message) goes to the server log only.
 */
export async function GET() {
  try {
    await pingDatabase();
    return NextResponse.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    console.error("health: database unreachable:", error);
    return NextResponse.json({ status: "unavailable" }, { status: 503, headers: { "cache-control": "no-store", "retry-after": "5" } });
  }
}
