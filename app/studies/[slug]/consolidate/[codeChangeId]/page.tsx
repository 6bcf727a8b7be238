import Link from "next/link";
import { NextDisagreement } from "@/components/adjudication/next-disagreement";
import { DiffView } from "@/components/diff-view";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { getConsolidationItem } from "@/lib/data/assignment-admin";
import { consolidate } from "../actions";
import { ConsolidationForm } from "./form";

export const dynamic = "force-dynamic";

export default async function ConsolidateItemPage({ params }: { params: Promise<{ slug: string; codeChangeId: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug, codeChangeId } = await params;
  const item = await orPageError(getConsolidationItem(account, slug, codeChangeId));
  const { change, annotators, claims, next } = item;
  return (
    <div className="space-y-4">
      <div>
        <Link href={`/studies/${slug}/consolidate`} prefetch={false} className="text-sm text-blue-700 hover:underline">
          ← all items
        </Link>
        <h1 className="text-2xl font-semibold">
          Consolidate <span className="font-mono">{change.externalId}</span>
        </h1>
        <p className="text-sm text-slate-600">
          {change.consolidatedAt ? `Consolidated ${change.consolidatedAt.toISOString().slice(0, 16).replace("T", " ")}; saving again replaces the decisions.` : "Not consolidated yet: the choices below are suggestions from the annotators' codes."}
        </p>
      </div>
      <details className="rounded border border-slate-200 bg-white">
        <summary className="cursor-pointer px-3 py-1 text-sm font-medium">Code change</summary>
        <DiffView sources={[{ key: change.id, path: change.filePath, language: change.language, diff: change.diff, oldFile: change.oldFile, newFile: change.newFile, primary: true }]} mode="unified" />
      </details>
      <ConsolidationForm slug={slug} codeChangeId={change.id} annotators={annotators.map((a) => ({ name: a.name || a.email, status: a.status }))} claims={claims} save={consolidate} />
      <NextDisagreement
        next={next && { href: `/studies/${slug}/consolidate/${next.id}`, label: next.externalId }}
        back={{ href: `/studies/${slug}/consolidate`, label: "All items" }}
      />
    </div>
  );
}
