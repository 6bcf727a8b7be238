import { EXPORT_FORMATS, type ExportFormat } from "@/lib/export";

const LABELS: Record<ExportFormat, string> = {
  jsonl: "JSONL (re-importable, Hugging Face datasets)",
  "long-csv": "long CSV",
  "long-jsonl": "long JSONL",
  "wide-csv": "wide CSV",
  "wide-jsonl": "wide JSONL",
  gradedreviews: "GradedReviews workbook",
};

/** Download links for every export format; the route streams the file. */
export function ExportLinks({ slug }: { slug: string }) {
  return (
    <p className="mt-2 flex flex-wrap gap-3 text-sm" aria-label="Downloads">
      <span className="text-slate-500">Export:</span>
      {EXPORT_FORMATS.map((format) => (
        <a key={format} href={`/api/studies/${encodeURIComponent(slug)}/export?format=${format}`} download className="text-blue-700 hover:underline">
          {LABELS[format]}
        </a>
      ))}
    </p>
  );
}
