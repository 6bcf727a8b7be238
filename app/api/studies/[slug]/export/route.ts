/**
 * Streamed dataset download for leads: `?format=jsonl|long-csv|…|gradedreviews[&annotator=…][&gold=include]`
 * (gradedreviews without annotator: consensus grades; gold items left out unless included). The long
 * and wide formats take filters: `status=submitted|draft`, `annotator=` (id or name), `from=`/`to=`
 * (dates or times the answers were last saved, `to` exclusive); so do `parquet` and `hf` (`&license=SPDX`),
 * the folder exports as a ZIP archive (lib/export/zip.ts). A format the study has no data for
 * is refused (409). The file's name carries the variant (`demo.long.gold.csv`); CSV cells that would
 * start a formula are neutralised (lib/export/csv.ts).
 */
import { LEAD_ROLES, requireApiAccount } from "@/lib/auth/session";
import { requireLedStudy } from "@/lib/data/study-access";
import { attachmentHeader, exportContentType, exportFileName, isDatasetFormat } from "@/lib/export";
import { datasetFiles, exportStream, prepareExport } from "@/lib/data/exports";
import { zipFolder } from "@/lib/export/zip";
import { handler } from "@/lib/http/respond";
import { exportQuerySchema } from "@/lib/validation/route-inputs";

export const dynamic = "force-dynamic";

export const GET = handler(async (request: Request, { params }: { params: Promise<{ slug: string }> }) => {
  const account = await requireApiAccount(LEAD_ROLES, "read");
  const query = exportQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const study = await requireLedStudy(account, (await params).slug);
  // Checked before the response starts, so a refusal (no data for the format, an unknown annotator) is a readable 4xx, not a cancelled download.
  const filter = { status: query.status, annotator: query.annotator, from: query.from, to: query.to };
  const includeGold = query.gold === "include";
  const { format } = query;
  const name = exportFileName(study.slug, format, { includeGold, ...filter });
  const headers = { "content-type": exportContentType(format), "content-disposition": attachmentHeader(name), "cache-control": "no-store" };
  if (isDatasetFormat(format)) {
    const prepared = await prepareExport({ studyId: study.id, format: "long-jsonl", annotator: query.annotator, includeGold, filter });
    const { files } = await datasetFiles(format, study, prepared, query.license);
    return new Response(zipFolder(name.replace(/\.zip$/, ""), files), { headers });
  }
  const prepared = await prepareExport({ studyId: study.id, format, annotator: query.annotator, includeGold, filter });
  return new Response(exportStream(prepared), { headers });
});
