import { Workspace } from "@/components/workspace/workspace";
import { requirePageUser } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { getWorkspace } from "@/lib/data/annotations";

export const dynamic = "force-dynamic";

/** The annotation workspace of one of the signed-in user's own assignments (404 for any other). */
export default async function AnnotationWorkspacePage({ params }: { params: Promise<{ assignmentId: string }> }) {
  const user = await requirePageUser();
  const { assignmentId } = await params;
  const data = await orPageError(getWorkspace(user.id, assignmentId));
  return <Workspace key={data.assignment.id} data={data} userId={user.id} />;
}
