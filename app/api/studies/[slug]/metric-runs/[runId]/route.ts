/** One metric run with its progress (poll while status is QUEUED or RUNNING). */
import { NextResponse } from "next/server";
import { listRuns } from "@/lib/metric-runs/web";
import { LEAD_ROLES, requireApiAccount } from "@/lib/auth/session";
import { requireLedStudy } from "@/lib/data/study-access";
import { handler } from "@/lib/http/respond";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

export const GET = handler(async (_request: Request, { params }: { params: Promise<{ slug: string; runId: string }> }) => {
  const account = await requireApiAccount(LEAD_ROLES, "read");
  const { slug, runId } = await params;
  const study = await requireLedStudy(account, slug);
  const [run] = await listRuns(study.id, { id: runId });
  if (!run) throw new AppError("NOT_FOUND", { message: "No such metric run in this study." });
  return NextResponse.json(run, { headers: { "cache-control": "no-store" } });
});
