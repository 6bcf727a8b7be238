import { notFound } from "next/navigation";
import { DataTable } from "@/components/dashboard/data-table";
import { formatTime } from "@/components/dashboard/format";
import { PollWhileActive } from "@/components/dashboard/poll-while-active";
import { ClaimPromptForm, PseudoRefRunForm } from "@/components/dashboard/pseudo-ref-forms";
import { count, fileSlug, progress, type TableData, text } from "@/components/dashboard/table-data";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { findLedStudy } from "@/lib/data/study-access";
import { llmJudgeAvailability } from "@/lib/judges";
import { listPseudoReferenceRuns } from "@/lib/data/pseudo-references";
import { claimPromptOf } from "@/lib/pseudo-refs";
import { detectAnalyzers } from "@/lib/static-analysis";
import { saveClaimPrompt, startPseudoRefs } from "./actions";
import { StudyPageHeader } from "@/components/study-page-header";

export const dynamic = "force-dynamic";

type Runs = Awaited<ReturnType<typeof listPseudoReferenceRuns>>;

const usd = (n: number | null) => (n === null ? "unknown (model not in the price table)" : `$${n.toFixed(4)}`);

function runsTable(slug: string, runs: Runs): TableData {
  return {
    id: "pseudo-reference-runs",
    title: "Pseudo-reference runs",
    filename: fileSlug(slug, "pseudo-reference-runs"),
    empty: "No pseudo-reference run yet.",
    columns: [
      { key: "created", label: "Started" },
      { key: "source", label: "Source" },
      { key: "status", label: "Status" },
      { key: "progress", label: "Progress" },
      { key: "stored", label: "Pseudo-references stored", numeric: true },
      { key: "llm", label: "LLM requests, tokens, cost" },
      { key: "signature", label: "Signature" },
      { key: "error", label: "Error" },
    ],
    rows: runs.map((r) => ({
      key: r.id,
      cells: [
        text(formatTime(r.createdAt.toISOString()), { title: r.id }),
        text(r.source),
        text(r.status, { data: { status: r.status } }),
        progress(r.done, r.total),
        count(r.created),
        text(r.llm ? `${r.llm.requests} requests (${r.llm.cachedChanges} changes from the cache), ${r.llm.promptTokens + r.llm.completionTokens} tokens, ${usd(r.llm.costUsd)}${r.llm.refusedChanges ? `, ${r.llm.refusedChanges} malformed answers refused` : ""}` : "—"),
        text(r.signature, { mono: true }),
        text(r.error ?? ""),
      ],
    })),
  };
}

/** Generating a study's CRScore pseudo-references (§3.1): start a run, watch its progress, edit the claim prompt. */
export default async function PseudoReferencesPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const study = await findLedStudy(account, slug);
  if (!study) notFound();
  const [runs, analyzers] = await Promise.all([listPseudoReferenceRuns(study.id), detectAnalyzers()]);
  const active = runs.some((r) => r.status === "QUEUED" || r.status === "RUNNING");
  const llm = llmJudgeAvailability();
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Pseudo-references">
        <p className="text-sm text-slate-600">
          CRScore compares reviews with pseudo-references: smells from static analyzers and claims from an LLM (§3.1). Runs are computed by the metric worker, one code change at a time, and resume where they
          stopped; what they generate appears in stage 1 for verification like imported pseudo-references. The CLI does the same:{" "}
          <code className="text-xs">npm run cli -- pseudo-refs --study {study.slug} --source smells|claims|all</code>.
        </p>
        <ul className="rounded border border-slate-200 bg-white p-2 text-sm" data-testid="analyzers">
          {analyzers.map((a) => (
            <li key={a.tool} className={a.available ? "" : "text-red-700"}>
              {a.available ? `${a.tool} ${a.version}` : a.message}
            </li>
          ))}
        </ul>
        <p className="rounded border border-slate-200 bg-white p-2 text-sm" data-testid="llm-provider">
          <span className="font-medium">Claim generation:</span> {llm.available ? `model ${llm.model} at the configured endpoint (LLM_URL)` : `not configured: ${llm.message}.`}
        </p>
      </StudyPageHeader>
      <PseudoRefRunForm slug={study.slug} start={startPseudoRefs} />
      <PollWhileActive active={active} seconds={2} />
      <DataTable table={runsTable(study.slug, runs)} />
      <ClaimPromptForm slug={study.slug} prompt={claimPromptOf(study)} custom={study.claimPrompt.trim() !== ""} save={saveClaimPrompt} />
    </div>
  );
}
