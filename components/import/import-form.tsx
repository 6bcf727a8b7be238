"use client";

import { DataTable } from "@/components/dashboard/data-table";
import { count, text } from "@/components/dashboard/table-data";
import Link from "next/link";
import { useRef, useState, type FormEvent } from "react";
import type { ImportError, ImportProgress, ImportResult } from "@/lib/import";
import { IMPORT_COUNT_LABELS } from "@/lib/import/count-labels";
import { errorPlace, ImportRefusal, NoteList } from "./import-refusal";

type Line = { progress: ImportProgress } | { result: ImportResult } | { error: string };

const FORMATS = [
  { value: "jsonl", label: "JSONL (this product's format)" },
  { value: "crscore-phase1", label: "CRScore phase 1: claim-accuracy sheet (CSV)" },
  { value: "crscore-phase2", label: "CRScore phase 2: review-quality sheet (CSV)" },
  { value: "gradedreviews", label: "GradedReviews workbook (XLSX)" },
  { value: "pull-request", label: "Pull requests with their files and review comments (JSONL bundle)" },
] as const;

/** Reads the NDJSON answer of the import route line by line as it arrives. */
async function* readLines(response: Response): AsyncGenerator<Line> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      yield JSON.parse(buffer.slice(0, newline)) as Line;
      buffer = buffer.slice(newline + 1);
    }
  }
}

/** Without `slug`, the form asks for the study (created by the import when it does not exist). */
export function ImportForm({ slug }: { slug?: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(dryRun: boolean) {
    const form = new FormData(formRef.current!);
    const study = slug ?? String(form.get("study") ?? "").trim();
    form.delete("study");
    form.set("dryRun", String(dryRun));
    form.set("update", form.get("update") === "on" ? "true" : "false");
    form.set("skipInvalidRows", form.get("skipInvalidRows") === "on" ? "true" : "false");
    form.set("primary", form.get("primary") === "on" ? "true" : "false");
    setBusy(true);
    setResult(null);
    setFailure(null);
    setProgress(null);
    try {
      const response = await fetch(`/api/studies/${encodeURIComponent(study)}/import`, { method: "POST", body: form });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({ error: response.statusText }))) as { error: string };
        setFailure(body.error);
        return;
      }
      for await (const line of readLines(response)) {
        if ("progress" in line) setProgress(line.progress);
        else if ("result" in line) setResult(line.result);
        else setFailure(line.error);
      }
    } catch (error) {
      setFailure(`The upload failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send(false);
  }

  return (
    <div className="space-y-4">
      <form ref={formRef} onSubmit={onSubmit} className="grid max-w-2xl gap-3 rounded border border-slate-200 bg-white p-4" aria-label="Import files">
        {slug === undefined && (
          <label className="text-sm">
            Study (slug: lowercase letters, digits and dashes; created if new)
            <input name="study" required pattern="[a-z0-9][a-z0-9\-]*" className="ml-2 rounded border border-slate-300 px-2 py-1" />
          </label>
        )}
        <label className="text-sm">
          Format
          <select name="format" className="ml-2 rounded border border-slate-300 px-2 py-1" defaultValue="jsonl">
            {FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span>Files</span>
          <input name="files" type="file" multiple required className="ml-2" />
        </label>
        <label className="text-sm">
          Context files (CRScore: <code>test&#123;index&#125;_old.py</code> / <code>_new.py</code>)
          <input name="context" type="file" multiple className="ml-2" />
        </label>
        <label className="text-sm">
          Annotator (CRScore sheets: else from the file name; GradedReviews: default gradedreviews-consensus)
          <input name="annotator" className="ml-2 rounded border border-slate-300 px-2 py-1" />
        </label>
        <label className="text-sm">
          <input name="update" type="checkbox" className="mr-2" />
          Overwrite stored values that the files contradict
        </label>
        <label className="text-sm">
          <input name="skipInvalidRows" type="checkbox" className="mr-2" />
          Skip invalid rows: import every valid row and list the faulty ones left out (otherwise any error refuses the whole import)
        </label>
        <label className="text-sm">
          <input name="primary" type="checkbox" className="mr-2" />
          Primary annotator: claim-quality rates (CRScore Table 1) take this annotator&apos;s judgement of a claim over another annotator&apos;s, unless a lead consolidated it
        </label>
        <div className="flex gap-2">
          <button type="button" disabled={busy} onClick={() => void send(true)} className="rounded border border-slate-400 px-3 py-1 text-sm disabled:opacity-50">
            Preview
          </button>
          <button type="submit" disabled={busy} className="rounded bg-slate-900 px-3 py-1 text-sm text-white disabled:opacity-50">
            Import
          </button>
        </div>
      </form>

      {busy && progress && (
        <div aria-label="Import progress" className="text-sm">
          {progress.phase === "parse" ? "Reading" : "Writing"} {progress.file}: {progress.done} / {progress.total}
          <progress className="ml-2 align-middle" value={progress.done} max={Math.max(progress.total, 1)} />
        </div>
      )}
      {failure && (
        <p role="alert" data-testid="import-failure" className="whitespace-pre-line text-sm text-red-700">
          {failure}
        </p>
      )}
      {result && <ImportResultView result={result} />}
    </div>
  );
}

const errorText = (error: ImportError) => `${errorPlace(error)} ${error.message}`;

function ImportResultView({ result }: { result: ImportResult }) {
  if (result.status === "refused") return <ImportRefusal errors={result.errors} totalErrors={result.totalErrors} />;
  const { summary } = result;
  // A preview of a new study has no page yet.
  const studyExists = result.status === "imported" || !summary.study.created;
  const rows = (Object.keys(IMPORT_COUNT_LABELS) as (keyof typeof IMPORT_COUNT_LABELS)[]).flatMap((key) => {
    const counts: { created: number; updated?: number; unchanged?: number } = summary.counts[key];
    return counts.created + (counts.updated ?? 0) + (counts.unchanged ?? 0) > 0 ? [{ key, counts }] : [];
  });
  return (
    <section aria-label={result.status === "preview" ? "Import preview" : "Import done"} className="rounded border border-emerald-200 bg-emerald-50 p-4 text-sm">
      <h2 className="font-medium text-emerald-900">{result.status === "preview" ? "Preview: nothing written yet" : "Imported"}</h2>
      <p>
        {result.status === "preview" && summary.study.created ? "New study " : "Study "}
        {studyExists ? (
          <Link href={`/studies/${encodeURIComponent(summary.study.slug)}`} className="font-mono text-blue-700 underline" data-testid="import-study-link">
            {summary.study.slug}
          </Link>
        ) : (
          <span className="font-mono">{summary.study.slug}</span>
        )}
        {result.status === "imported" && summary.study.created ? " (created by this import)" : ""} · annotators: {summary.annotators.join(", ") || "none"}
      </p>
      {rows.length === 0 ? (
        <p className="mt-2">The files hold nothing to import.</p>
      ) : (
        <div className="mt-2">
          <DataTable
            table={{
              id: "import-counts",
              label: "Rows per kind",
              columns: [
                { key: "what", label: "What" },
                { key: "created", label: "new", numeric: true },
                { key: "updated", label: "updated", numeric: true },
                { key: "unchanged", label: "unchanged", numeric: true },
              ],
              rows: rows.map(({ key, counts }) => ({
                key,
                data: { table: key },
                cells: [text(IMPORT_COUNT_LABELS[key]), count(counts.created), text(counts.updated === undefined ? "" : String(counts.updated)), text(counts.unchanged === undefined ? "" : String(counts.unchanged))],
              })),
            }}
          />
        </div>
      )}
      {summary.warnings.length > 0 && (
        <ul className="mt-2 list-disc pl-5 text-amber-800">
          {summary.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      <NoteList title="Code changes told apart although they share an id" notes={summary.separatedChanges} testId="import-separated" />
      <NoteList title="Claims matched by normalized text" notes={summary.claimNormalizations} testId="import-normalized" />
      <NoteList title="Rows left out (invalid)" notes={summary.skippedRows.map(errorText)} testId="import-skipped" />
    </section>
  );
}
