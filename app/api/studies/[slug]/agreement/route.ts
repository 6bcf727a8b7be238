/**
 * The agreement report as JSON (cached while the data do not change), exactly the `agreement`
 * CLI's output: `?task=REVIEW_RATING&batchSize=50&itemSet=NAME&resamples=1000&seed=1[&gold=include][&drafts=include]` (itemSet: a stored item set of the study). On big studies the
 * worker computes the CIs; until it has, 503 with Retry-After (resamples=0 answers at once).
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { studyFingerprint } from "@/lib/analysis/report-cache";
import type { AgreementOptions } from "@/lib/analysis";
import { LEAD_ROLES, requireApiUser } from "@/lib/auth/session";
import { requireLedStudy } from "@/lib/data/study-access";
import { reportItemSets } from "@/lib/data/item-sets";
import { TaskType } from "@/lib/generated/prisma/enums";
import { handler } from "@/lib/http/respond";
import { AppError } from "@/lib/errors";
import { routeReport } from "@/lib/jobs";

export const dynamic = "force-dynamic";

const whole = z.coerce.number().int().min(0);
const querySchema = z.object({
  task: z.enum(Object.values(TaskType) as [TaskType, ...TaskType[]]).optional(),
  batchSize: whole.min(1).optional(),
  itemSet: z.string().min(1).max(100).optional(),
  resamples: whole.max(100_000).optional(),
  seed: whole.optional(),
  /** gold=include: gold items (known answers) too; left out by default. */
  gold: z.literal("include").optional(),
  /** drafts=include: ratings of unsubmitted assignments too; only submitted work by default. */
  drafts: z.literal("include").optional(),
});

export const GET = handler(async (request: Request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(LEAD_ROLES);
  const query = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const study = await requireLedStudy(user, (await params).slug);
  if (query.task && !study.taskTypes.includes(query.task)) throw new AppError("INVALID_INPUT", { message: `study ${study.slug} has no task ${query.task}; its tasks: ${study.taskTypes.join(", ")}` });
  const bootstrap = { ...(query.resamples === undefined ? {} : { nResamples: query.resamples }), ...(query.seed === undefined ? {} : { seed: query.seed }) };
  const options: AgreementOptions = {
    task: query.task,
    batchSize: query.batchSize,
    ...(await reportItemSets(user, study.slug, query.itemSet)),
    ...(Object.keys(bootstrap).length > 0 ? { bootstrap } : {}),
    ...(query.gold ? { includeGold: true } : {}),
    ...(query.drafts ? { includeDrafts: true } : {}),
  };
  const report = await routeReport("agreement", study.id, options, await studyFingerprint(study.id, false));
  return NextResponse.json(report, { headers: { "cache-control": "no-store" } });
});
