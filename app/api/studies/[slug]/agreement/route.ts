/**
 * The agreement report as JSON (cached while the data do not change), exactly the `agreement`
 * CLI's output: `?task=REVIEW_RATING&windowSize=50&itemSet=NAME&resamples=1000&seed=1[&gold=include][&drafts=include]` (itemSet: a stored item set of the study). On big studies the
 * worker computes the CIs; until it has, 503 with Retry-After (resamples=0 answers at once).
 */
import { NextResponse } from "next/server";
import { studyFingerprint } from "@/lib/data/report-cache";
import type { AgreementOptions } from "@/lib/analysis";
import { LEAD_ROLES, requireApiAccount } from "@/lib/auth/session";
import { requireLedStudy } from "@/lib/data/study-access";
import { reportItemSets } from "@/lib/data/item-sets";
import { handler } from "@/lib/http/respond";
import { AppError } from "@/lib/errors";
import { routeReport } from "@/lib/analysis/report-jobs";
import { agreementQuerySchema, bootstrapOption } from "@/lib/validation/report-options";

export const dynamic = "force-dynamic";

export const GET = handler(async (request: Request, { params }: { params: Promise<{ slug: string }> }) => {
  const account = await requireApiAccount(LEAD_ROLES, "read");
  const query = agreementQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const study = await requireLedStudy(account, (await params).slug);
  if (query.task && !study.tasks.includes(query.task)) throw new AppError("INVALID_INPUT", { message: `study ${study.slug} has no task ${query.task}; its tasks: ${study.tasks.join(", ")}` });
  const options: AgreementOptions = {
    task: query.task,
    windowSize: query.windowSize,
    ...(await reportItemSets(account, study.slug, query.itemSet)),
    ...bootstrapOption(query),
    ...(query.gold ? { includeGold: true } : {}),
    ...(query.drafts ? { includeDrafts: true } : {}),
  };
  const report = await routeReport("agreement", study.id, options, await studyFingerprint(study.id, false));
  return NextResponse.json(report, { headers: { "cache-control": "no-store" } });
});
