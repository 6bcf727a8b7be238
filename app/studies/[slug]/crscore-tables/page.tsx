import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { table4Table, table6Table, table14Table, tauOrigin } from "@/components/dashboard/crscore-tables";
import { DataTable } from "@/components/dashboard/data-table";
import { StudyPageHeader } from "@/components/study-page-header";
import type { Table4Report } from "@/lib/analysis";
import { cachedTable4Report } from "@/lib/data/report-cache";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { findLedStudy } from "@/lib/data/study-access";
import { publicError } from "@/lib/errors";
import { studySmellTables } from "@/lib/data/pseudo-references";

export const dynamic = "force-dynamic";

/** Table 4 embeds every rated review and claim, so it streams in after the smell tables. */
async function Table4({ studyId, slug }: { studyId: string; slug: string }) {
  let report: Table4Report;
  try {
    report = await cachedTable4Report(studyId);
  } catch (error) {
    return (
      <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        CRScore Table 4 could not be computed: {publicError(error).userMessage}
      </p>
    );
  }
  const embedder = report.embedder.offline
    ? `${report.embedder.model} (the offline TF-IDF default, not a neural model: the paper's grid belongs to mxbai-embed-large-v1)`
    : `${report.embedder.model}, ${report.embedder.pooling === "tokens-without-stopwords" ? "token embeddings pooled without stopwords (§3.3)" : "whole-sentence embeddings (the endpoint offers no token embeddings)"}`;
  return (
    <DataTable
      table={table4Table(slug, report)}
      note={
        <span data-testid="table-4-note">
          {report.pairs} review-claim pairs from {report.ratings} stage-2 ratings, {report.linked} linked by the annotators; embedder {embedder}. CRScore&apos;s τ {report.tau.value.toFixed(4)}: {tauOrigin(report.tau)}. τ_GT {report.tauGt.value.toFixed(4)}:{" "}
          {tauOrigin(report.tauGt)}.
        </span>
      }
    />
  );
}

/**
 * CRScore's validation tables for a study: Table 4 (the similarity threshold against the
 * annotators' stage-2 claim links), Table 14 (smell types per language) and Table 6 (radon's
 * ranks) of its generated smells. Table 18 is on the validity page, per CRScore column.
 */
export default async function CrscoreTablesPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const study = await findLedStudy(account, slug);
  if (!study) notFound();
  const smells = await studySmellTables(study.id);
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="CRScore tables">
        <p className="text-sm text-slate-600">
          The CRScore paper&apos;s validation tables on this study. The same numbers as <code className="text-xs">npm run cli -- crscore-table4 --study {study.slug}</code> (Table 4) and the end of{" "}
          <code className="text-xs">npm run cli -- pseudo-refs --study {study.slug} --source smells</code> (Tables 14 and 6). CRScore Table 18 (correlation across thresholds) is on the{" "}
          <Link href={`/studies/${study.slug}/validity?metric=crscore-rel`} className="text-blue-700 underline">
            validity page
          </Link>
          .
        </p>
      </StudyPageHeader>
      <Suspense fallback={<p className="text-sm text-slate-500">Computing CRScore Table 4 (embedding the rated reviews and their claims)…</p>}>
        <Table4 studyId={study.id} slug={study.slug} />
      </Suspense>
      <DataTable table={table14Table(study.slug, smells.table14)} />
      <DataTable table={table6Table(study.slug, smells.table6)} note="Blocks of the Python changes' new files, from the latest smells run (radon's cyclomatic complexity; CRScore Appendix C.2.2)." />
    </div>
  );
}
