/**
 * Metric runs of a study. GET: the runs (newest first), the embedding provider and the stored
 * metric variants. POST {metrics: ["bleu-gradedreviews", "crscore"], tau?, chunkSize?}: plans
 * and enqueues a run that this server computes in the background (see lib/metric-runs/web.ts); 202 with
 * the run, to be polled at ./[runId].
 */
import { NextResponse } from "next/server";
import { startRunSchema, startWebMetricRun, embeddingProvider, listRuns } from "@/lib/metric-runs/web";
import { LEAD_ROLES, requireApiAccount } from "@/lib/auth/session";
import { listStudyMetrics } from "@/lib/data/metric-scores";
import { requireLedStudy } from "@/lib/data/study-access";
import { handler } from "@/lib/http/respond";
import { parseMetricNames } from "@/lib/metric-runs";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

export const GET = handler(async (_request: Request, { params }: { params: Promise<{ slug: string }> }) => {
  const account = await requireApiAccount(LEAD_ROLES, "read");
  const study = await requireLedStudy(account, (await params).slug);
  const [runs, stored] = await Promise.all([listRuns(study.id), listStudyMetrics(study.id)]);
  return NextResponse.json({ study: study.slug, embedding: embeddingProvider(), runs, stored }, { headers: { "cache-control": "no-store" } });
});

export const POST = handler(async (_request: Request, { params }: { params: Promise<{ slug: string }> }, body) => {
  const account = await requireApiAccount(LEAD_ROLES, "import");
  const study = await requireLedStudy(account, (await params).slug);
  if (body === undefined) throw new AppError("INVALID_INPUT", { message: "Send a JSON body such as {\"metrics\": [\"bleu-gradedreviews\"]}." });
  const input = startRunSchema.parse(body);
  parseMetricNames(input.metrics);
  // A judge without an endpoint, or SWE-Judge without human scores to pick its team, throws
  // INVALID_INPUT: the lead's request cannot be done as asked (the FAILED run row keeps the message).
  const started = await startWebMetricRun(study.id, input, account.id);
  const [run] = await listRuns(study.id, { id: started.run.id });
  return NextResponse.json({ run, resumed: started.resumed, chunks: started.chunks }, { status: 202 });
});
