import { z } from "zod";
import { CodeChangePreview } from "@/components/workspace/code-change-preview";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { codeChangePreview } from "@/lib/data/lead-views";
import { orPageError } from "@/lib/errors/page";
import { TaskType } from "@/lib/generated/prisma/enums";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  task: z.enum(Object.values(TaskType) as [TaskType, ...TaskType[]]).optional().catch(undefined),
  annotator: z.string().min(1).optional().catch(undefined),
});

/** A lead's read-only preview of an item of their study, with an annotator's answers overlaid (404 outside the lead's studies). */
export default async function CodeChangePreviewPage({ params, searchParams }: { params: Promise<{ slug: string; codeChangeId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug, codeChangeId } = await params;
  const query = querySchema.parse(await searchParams);
  const preview = await orPageError(codeChangePreview(account, slug, codeChangeId, { task: query.task, annotatorId: query.annotator }));
  return <CodeChangePreview key={`${preview.task}|${preview.annotatorId ?? ""}`} preview={preview} />;
}
