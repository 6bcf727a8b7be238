import type { ExportOffer } from "@/lib/export/available";
import { DATASET_FORMATS, type DatasetFormat, EXPORT_NEEDS, type ExportData, type ExportFormat, LICENSE_ID } from "@/lib/export/formats";

const LABELS: Record<ExportFormat, string> = {
  jsonl: "JSONL (re-importable, Hugging Face datasets)",
  "long-csv": "long CSV",
  "long-jsonl": "long JSONL",
  "wide-csv": "wide CSV",
  "wide-jsonl": "wide JSONL",
  gradedreviews: "GradedReviews workbook",
  "github-comments": "review comments (GitHub's shape)",
  "test-outcomes": "test outcomes (outcomes JSONL)",
};

const DATASET_LABELS: Record<DatasetFormat, string> = { parquet: "Parquet tables, one per task", hf: "Hugging Face dataset (tables and dataset card)" };

/** What is not offered, for want of which data. */
const NOT_YET: Record<ExportData, string> = {
  "code changes": "no export before the study has code changes",
  annotations: "the long and wide answers once someone has annotated",
  "reference grades": "the GradedReviews workbook once reviews are graded",
  "review comments": "review comments once a pull request with comments is imported",
  "test outcomes": "test outcomes once review systems' test results are imported",
};

/**
 * Download links for the export formats the study has data for (`offer`); the route streams the
 * file. The GradedReviews workbook holds one grade per cell: the consensus grade, or the grades of
 * the annotator picked. Gold items (known answers for attention checks) are left out unless asked for.
 * The long and wide answers can be filtered by status (submitted or draft), annotator and saving dates.
 * The same rows download as Parquet tables or a Hugging Face dataset, each a ZIP archive of its folder.
 */
export function ExportLinks({ slug, annotators, offer }: { slug: string; annotators: string[]; offer: ExportOffer }) {
  const url = `/api/studies/${encodeURIComponent(slug)}/export`;
  const offered = (format: ExportFormat) => offer.formats.includes(format);
  const answers = offer.formats.filter((format) => format.startsWith("long") || format.startsWith("wide"));
  const missing = new Set((Object.keys(LABELS) as ExportFormat[]).filter((format) => !offered(format)).map((format) => EXPORT_NEEDS[format]));
  return (
    <div className="mt-2 space-y-1 text-sm" aria-label="Downloads">
      <p className="flex flex-wrap gap-3">
        <span className="text-slate-500">Export:</span>
        {offer.formats
          .filter((format) => format !== "gradedreviews")
          .map((format) => (
            <a key={format} href={`${url}?format=${format}`} download className="text-blue-700 hover:underline">
              {LABELS[format]}
            </a>
          ))}
        {offer.gold && offered("long-csv") && (
          <a href={`${url}?format=long-csv&gold=include`} download className="text-blue-700 hover:underline">
            long CSV with gold items
          </a>
        )}
      </p>
      {missing.size > 0 && (
        <p className="text-slate-500" data-testid="exports-not-offered">
          Not offered yet: {(missing.has("code changes") ? [NOT_YET["code changes"]] : [...missing].map((data) => NOT_YET[data])).join("; ")}.
        </p>
      )}
      {answers.length > 0 && (
        <form action={url} method="get" className="flex flex-wrap items-center gap-2" aria-label="Filtered export">
          <FormatSelect label="Answers as" formats={answers} labels={LABELS} defaultValue="long-csv" />
          <label>
            status{" "}
            <select name="status" defaultValue="" className="rounded border border-slate-300 px-1">
              <option value="">any</option>
              <option value="submitted">submitted</option>
              <option value="draft">draft</option>
            </select>
          </label>
          <label>
            by{" "}
            <AnnotatorSelect annotators={annotators} none="every annotator" />
          </label>
          <label>
            saved from <input type="date" name="from" className="rounded border border-slate-300 px-1" />
          </label>
          <label>
            before <input type="date" name="to" className="rounded border border-slate-300 px-1" />
          </label>
          <DownloadButton />
        </form>
      )}
      {offered("long-jsonl") && (
        <form action={url} method="get" className="flex flex-wrap items-center gap-2" aria-label="Dataset download">
          <FormatSelect label="Dataset as" formats={DATASET_FORMATS} labels={DATASET_LABELS} defaultValue="hf" />
          <label>
            licence (SPDX){" "}
            <input name="license" placeholder="other" pattern={LICENSE_ID.source} title="An SPDX identifier such as cc-by-4.0 or mit, or other" className="w-28 rounded border border-slate-300 px-1" />
          </label>
          {offer.gold && <GoldCheckbox />}
          <DownloadButton />
        </form>
      )}
      {offered("gradedreviews") && (
        <form action={url} method="get" className="flex flex-wrap items-center gap-2" aria-label="GradedReviews workbook">
          <input type="hidden" name="format" value="gradedreviews" />
          <label>
            {LABELS.gradedreviews} with grades of{" "}
            <AnnotatorSelect annotators={offer.graders} none="the consensus" />
          </label>
          {offer.gold && <GoldCheckbox />}
          <DownloadButton />
        </form>
      )}
    </div>
  );
}

/** Picks one annotator by name for a download; the empty choice (`none`) says what is exported instead. */
function AnnotatorSelect({ annotators, none }: { annotators: readonly string[]; none: string }) {
  return (
    <select name="annotator" defaultValue="" className="rounded border border-slate-300 px-1">
      <option value="">{none}</option>
      {annotators.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </select>
  );
}

/** The format of a download form, each by its label. */
function FormatSelect<F extends string>({ label, formats, labels, defaultValue }: { label: string; formats: readonly F[]; labels: Record<F, string>; defaultValue: F }) {
  return (
    <label>
      {label}{" "}
      <select name="format" defaultValue={defaultValue} className="rounded border border-slate-300 px-1">
        {formats.map((format) => (
          <option key={format} value={format}>
            {labels[format]}
          </option>
        ))}
      </select>
    </label>
  );
}

function GoldCheckbox() {
  return (
    <label>
      <input type="checkbox" name="gold" value="include" /> with gold items
    </label>
  );
}

function DownloadButton() {
  return (
    <button type="submit" className="text-blue-700 hover:underline">
      Download
    </button>
  );
}
