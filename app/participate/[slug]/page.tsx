import Link from "next/link";
import { redirect } from "next/navigation";
import { requirePageAccount } from "@/lib/auth/session";
import { scheduleRelease } from "@/lib/crowd/release";
import { participation } from "@/lib/data/participants";
import { orPageError } from "@/lib/errors/page";

export const dynamic = "force-dynamic";

/** A participant's page (crowd links): the qualification first, then their quota of items, then the completion code or the platform's completion URL. */
export default async function ParticipatePage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(["ANNOTATOR"]);
  const view = await orPageError(participation(account, (await params).slug));
  if (view.took > 0) await scheduleRelease(account.id);
  if (view.done?.url) redirect(view.done.url);
  const { study } = view;
  const finished = view.assignments.filter((a) => a.status === "DONE").length;
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <div>
        <p className="text-sm text-slate-600">Taking part in</p>
        <h1 className="text-2xl font-semibold">{study.name}</h1>
      </div>
      {view.qualification === "pending" && (
        <p role="status" className="rounded border border-sky-300 bg-sky-50 p-3" data-testid="participant-qualify">
          First, the qualification: <Link href={`/qualification/${study.slug}`} className="text-blue-700 underline">start it</Link>.
        </p>
      )}
      {view.qualification === "failed" && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-3" data-testid="participant-failed">
          You did not pass the qualification, so there are no items for you in this study. Thank you for your time.
        </p>
      )}
      {view.done ? (
        <section role="status" aria-label="Completion" className="rounded border border-green-300 bg-green-50 p-4" data-testid="completion">
          <p className="font-medium">Thank you: you have finished your items.</p>
          {view.done.code !== "" && (
            <p className="mt-2">
              Your completion code: <code className="rounded bg-white px-2 py-1 font-mono text-lg" data-testid="completion-code">{view.done.code}</code>
            </p>
          )}
        </section>
      ) : (
        view.assignments.length > 0 && (
          <section aria-label="Your items" className="space-y-2">
            <p className="text-sm text-slate-700" data-testid="participant-progress">
              {finished} of {view.assignments.length} items finished. Items you leave idle for {study.releaseMinutes} minutes go to other participants.
            </p>
            <ol className="list-decimal pl-6">
              {view.assignments.map((a) => (
                <li key={a.id} data-testid="participant-item">
                  {a.status === "DONE" ? (
                    <span>{a.filePath} (done)</span>
                  ) : a.status === "SKIPPED" ? (
                    <span>{a.filePath} (released)</span>
                  ) : (
                    <Link href={`/annotate/${a.id}`} className="text-blue-700 underline">
                      {a.filePath}
                    </Link>
                  )}
                </li>
              ))}
            </ol>
          </section>
        )
      )}
      {view.qualification !== "pending" && view.qualification !== "failed" && view.assignments.length === 0 && (
        <p className="text-slate-600" data-testid="participant-none">There are no items left for you in this study. Thank you.</p>
      )}
    </div>
  );
}
