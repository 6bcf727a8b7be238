"use server";

import { revalidatePath } from "next/cache";
import { slugField } from "@/lib/validation/study-fields";
import { action } from "@/lib/actions/safe-action";
import { LEAD_ROLES } from "@/lib/auth/session";
import { requireLedStudy } from "@/lib/data/study-access";
import { startRunSchema, startWebMetricRun } from "@/lib/metric-runs/web";

export const startRun = action(LEAD_ROLES, startRunSchema.extend({ slug: slugField }), async (input, account) => {
  const study = await requireLedStudy(account, input.slug);
  const started = await startWebMetricRun(study.id, input, account.id);
  revalidatePath(`/studies/${study.slug}/metrics`);
  return { runId: started.run.id, status: started.run.status, total: started.run.total, done: started.run.done, resumed: started.resumed, chunks: started.chunks };
});
