"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import type { TestResultsResult } from "@/lib/import/test-results";
import { errorPlace, ImportRefusal, NoteList } from "./import-refusal";

/**
 * Upload of one system's test results for a pull request (JUnit XML, which names neither) or of
 * outcomes JSONL files (which name both per line); the report above reloads after an import.
 */
export function TestResultsForm({ slug, pullRequests, systems }: { slug: string; pullRequests: { externalId: string; title: string }[]; systems: string[] }) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [result, setResult] = useState<TestResultsResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    setFailure(null);
    try {
      const response = await fetch(`/api/studies/${encodeURIComponent(slug)}/test-results`, { method: "POST", body: new FormData(formRef.current!) });
      const body = (await response.json().catch(() => ({ error: response.statusText }))) as TestResultsResult | { error: string };
      if (!response.ok || "error" in body) setFailure("error" in body ? body.error : response.statusText);
      else {
        setResult(body);
        if (body.status === "imported") router.refresh();
      }
    } catch (error) {
      setFailure(`The upload failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3">
      <form ref={formRef} onSubmit={(e) => void onSubmit(e)} className="grid max-w-2xl gap-3 rounded border border-slate-200 bg-white p-4" aria-label="Upload test results">
        <label className="text-sm">
          System
          <input name="system" list="test-results-systems" placeholder="named in JSONL files" className="ml-2 rounded border border-slate-300 px-2 py-1" />
          <datalist id="test-results-systems">
            {systems.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        </label>
        <label className="text-sm">
          Pull request
          <select name="pr" defaultValue="" className="ml-2 rounded border border-slate-300 px-2 py-1">
            <option value="">named in JSONL files</option>
            {pullRequests.map((pr) => (
              <option key={pr.externalId} value={pr.externalId}>
                {pr.externalId} {pr.title}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span>Files (JUnit XML from pytest, Jest, Maven Surefire or Go; outcomes JSONL)</span>
          <input name="files" type="file" multiple required accept=".xml,.jsonl,.ndjson" className="ml-2" />
        </label>
        <div>
          <button type="submit" disabled={busy} className="rounded bg-slate-900 px-3 py-1 text-sm text-white disabled:opacity-50">
            {busy ? "Importing…" : "Import test results"}
          </button>
        </div>
      </form>
      {failure && (
        <p role="alert" data-testid="import-failure" className="text-sm text-red-700">
          {failure}
        </p>
      )}
      {result?.status === "refused" && <ImportRefusal errors={result.errors} totalErrors={result.totalErrors} />}
      {result?.status === "imported" && (
        <section aria-label="Import done" className="rounded border border-emerald-200 bg-emerald-50 p-4 text-sm">
          <h2 className="font-medium text-emerald-900">Imported</h2>
          <p data-testid="test-results-summary">
            {result.summary.tests} test outcome{result.summary.tests === 1 ? "" : "s"} of {result.summary.systems.join(", ")} for {result.summary.pullRequests.join(", ")}: {result.summary.byStatus.PASSED} passed, {result.summary.byStatus.FAILED} failed,{" "}
            {result.summary.byStatus.ERROR} errors, {result.summary.byStatus.SKIPPED} skipped; {result.summary.linked} tied to a human comment; {result.summary.replaced} earlier outcome{result.summary.replaced === 1 ? "" : "s"} replaced.
          </p>
          <NoteList title="Warnings" notes={result.summary.warnings} testId="test-results-warnings" />
          <NoteList title="Read past" notes={result.summary.skipped.map((s) => `${errorPlace(s)} ${s.reason}`)} testId="test-results-skipped" />
        </section>
      )}
    </div>
  );
}
