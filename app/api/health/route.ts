import { NextResponse } from "next/server";
import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** Liveness and database reachability: 200 {"status":"ok","db":"ok"}, or 503 with the reason. */
export async function GET() {
  try {
    await db.$queryRaw`SELECT 1`;
    return NextResponse.json({ status: "ok", db: "ok" });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return NextResponse.json({ status: "error", db: "unreachable", reason }, { status: 503 });
  }
}
