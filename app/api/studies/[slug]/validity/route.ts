/**
 * The validity report as JSON (cached while the data do not change), exactly the `validity` CLI's output:
 * `?metric=crscore-rel&human=relevance[&level=system][&params=KEY][&includeReferences=1][&itemSet=NAME][&drafts=include][&resamples=N][&seed=S]`.
 * On big studies the worker computes the CIs; until it has, 503 with Retry-After (resamples=0 answers at once).
 */
import { NextResponse } from "next/server";
import { studyFingerprint } from "@/lib/data/report-cache";
import { LEAD_ROLES, requireApiAccount } from "@/lib/auth/session";
import { requireLedStudy } from "@/lib/data/study-access";
import { itemSetFilter } from "@/lib/data/item-sets";
import { handler } from "@/lib/http/respond";
import { routeReport } from "@/lib/analysis/report-jobs";
import { bootstrapOption, validityQuerySchema } from "@/lib/validation/report-options";

export const dynamic = "force-dynamic";

export const GET = handler(async (request: Request, { params }: { params: Promise<{ slug: string }> }) => {
  const account = await requireApiAccount(LEAD_ROLES, "read");
  const query = validityQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const study = await requireLedStudy(account, (await params).slug);
  const options = {
    metric: query.metric,
    human: query.human,
    level: query.level ?? "review",
    signature: query.params,
    includeReferences: query.includeReferences === "1" || query.includeReferences === "true",
    ...bootstrapOption(query),
    ...(query.drafts ? { includeDrafts: true } : {}),
    ...(query.itemSet === undefined ? {} : { items: await itemSetFilter(account, study.slug, query.itemSet) }),
  };
  const report = await routeReport("validity", study.id, options, await studyFingerprint(study.id, true));
  return NextResponse.json(report, { headers: { "cache-control": "no-store" } });
});
