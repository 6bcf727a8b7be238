import { notFound } from "next/navigation";
import { Workspace } from "@/components/workspace/workspace";
import { HttpError, requirePageUser } from "@/lib/auth/session";
import { getWorkspace, type WorkspaceData } from "@/lib/data/annotations";

export const dynamic = "force-dynamic";

/** The annotation workspace of one of the signed-in user's own assignments (404 for any other). */
export default async function AnnotationWorkspacePage({ params }: { params: Promise<{ assignmentId: string }> }) {
  const user = await requirePageUser();
  const { assignmentId } = await params;
  let data: WorkspaceData;
  try {
    data = await getWorkspace(user.id, assignmentId);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) notFound();
    throw error;
  }
  return <Workspace key={data.assignment.id} data={data} userId={user.id} />;
}
