import Link from "next/link";
import { Workspace } from "@/components/workspace/workspace";
import { requirePageAccount } from "@/lib/auth/session";
import { orLockedMessage } from "@/lib/errors/page";
import { getWorkspace, nextOpenAfter } from "@/lib/data/annotations";
import { TASK_LABELS } from "@/lib/annotation/task-labels";

export const dynamic = "force-dynamic";

/** The annotation workspace of one of the signed-in account's own assignments (404 for any other; a message while paused). */
export default async function AnnotationWorkspacePage({ params }: { params: Promise<{ assignmentId: string }> }) {
  const account = await requirePageAccount();
  const { assignmentId } = await params;
  const result = await orLockedMessage(getWorkspace(account.id, assignmentId));
  if ("locked" in result) {
    const next = await nextOpenAfter(account.id, assignmentId);
    return (
      <div className="space-y-3">
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-3 text-amber-900" data-testid="locked">
          {result.locked}
        </p>
        <p className="flex flex-wrap gap-4">
          {next && (
            <Link href={`/annotate/${next}`} className="text-blue-700 hover:underline" data-testid="next-open-item">
              Next open item
            </Link>
          )}
          <Link href="/annotate" className="text-blue-700 hover:underline">
            Back to my assignments
          </Link>
        </p>
      </div>
    );
  }
  return <Workspace key={result.data.assignment.id} data={result.data} accountId={account.id} taskLabel={TASK_LABELS[result.data.assignment.task]} />;
}
