import { PullRequestPreview } from "@/components/pull-request/pull-request-preview";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { requireLedPullRequest } from "@/lib/data/pull-requests";
import { orPageError } from "@/lib/errors/page";
import { leadDisplay } from "@/lib/review-comments/display";

export const dynamic = "force-dynamic";

/** A pull request of a study the signed-in lead leads, with its review comments in place (404 otherwise). */
export default async function PullRequestPage({ params }: { params: Promise<{ slug: string; pullRequestId: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug, pullRequestId } = await params;
  const view = await orPageError(requireLedPullRequest(account, slug, decodeURIComponent(pullRequestId)));
  return <PullRequestPreview slug={slug} {...leadDisplay(view)} />;
}
