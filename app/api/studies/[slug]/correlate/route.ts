/**
 * The validity report as JSON (cached while the data do not change), exactly the `correlate` CLI's output:
 * `?metric=crscore-rel&human=relevance[&level=system][&params=KEY][&includeReferences=1][&itemSet=NAME][&drafts=include][&resamples=N][&seed=S]`.
 * On big studies the worker computes the CIs; until it has, 503 with Retry-After (resamples=0 answers at once).
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { studyFingerprint } from "@/lib/analysis/report-cache";
import { LEAD_ROLES, requireApiUser } from "@/lib/auth/session";
import { requireLedStudy } from "@/lib/data/study-access";
import { itemSetFilter } from "@/lib/data/item-sets";
import { handler } from "@/lib/http/respond";
import { routeReport } from "@/lib/jobs";

export const dynamic = "force-dynamic";

const whole = z.coerce.number().int().min(0);
const querySchema = z.object({
  metric: z.string().min(1),
  human: z.string().min(1),
  level: z.enum(["segment", "system"]).optional(),
  params: z.string().min(1).optional(),
  includeReferences: z.enum(["0", "1", "true", "false"]).optional(),
  resamples: whole.max(100_000).optional(),
  seed: whole.optional(),
  itemSet: z.string().min(1).max(100).optional(),
  /** drafts=include: ratings of unsubmitted assignments too; only submitted work by default. */
  drafts: z.literal("include").optional(),
});

export const GET = handler(async (request: Request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(LEAD_ROLES);
  const query = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const study = await requireLedStudy(user, (await params).slug);
  const bootstrap = { ...(query.resamples === undefined ? {} : { nResamples: query.resamples }), ...(query.seed === undefined ? {} : { seed: query.seed }) };
  const options = {
    metric: query.metric,
    human: query.human,
    level: query.level ?? "segment",
    paramsKey: query.params,
    includeReferences: query.includeReferences === "1" || query.includeReferences === "true",
    ...(Object.keys(bootstrap).length > 0 ? { bootstrap } : {}),
    ...(query.drafts ? { includeDrafts: true } : {}),
    ...(query.itemSet === undefined ? {} : { items: await itemSetFilter(user, study.slug, query.itemSet) }),
  };
  const report = await routeReport("correlation", study.id, options, await studyFingerprint(study.id, true));
  return NextResponse.json(report, { headers: { "cache-control": "no-store" } });
});
