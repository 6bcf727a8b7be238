/**
 * Upload import for leads: multipart form with `format`, `files`, optional `context` files,
 * `annotator`, `update`, `skipInvalidRows`, `primary` and `dryRun` (preview: everything is checked,
 * nothing is written).
 * Answers NDJSON: `{"progress": …}` lines while parsing and writing, then `{"result": …}` (or
 * `{"error": …}`). Uploads above CRJUDGE_IMPORT_INLINE_MB are imported by a worker and the
 * answer follows the job (lib/import/jobs.ts); smaller ones are imported here.
 */
import { LEAD_ROLES, requireApiAccount } from "@/lib/auth/session";
import { requireImportTarget } from "@/lib/data/study-access";
import { AppError, publicError } from "@/lib/errors";
import { importMaxBytes } from "@/lib/http/body";
import { handler } from "@/lib/http/respond";
import type { ImportProgress } from "@/lib/import";
import { uploadedFiles } from "@/lib/import/file";
import { previewImport, runImport } from "@/lib/data/imports";
import { enqueueImport, followImportJob, importInlineBytes, type ImportEvent } from "@/lib/import/jobs";
import { decodeUtf8 } from "@/lib/import/text";
import { importFormSchema } from "@/lib/validation/route-inputs";
import { announceImport } from "@/lib/webhooks/send";

export const dynamic = "force-dynamic";

async function upload(_request: Request, { params }: { params: Promise<{ slug: string }> }, form: FormData): Promise<Response> {
  const account = await requireApiAccount(LEAD_ROLES, "import");
  const { slug } = await params;
  // Refused before the answer starts streaming: another lead's study is 404 (as if absent).
  await requireImportTarget(account, slug);
  const options = importFormSchema.parse(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")));
  const files = await uploadedFiles(form, "files");
  const contextFiles = await uploadedFiles(form, "context");
  const context = new Map(
    contextFiles.map((f) => {
      const decoded = decodeUtf8(f.content);
      if (!decoded.ok) throw new AppError("INVALID_INPUT", { message: `context file ${f.name}: ${decoded.message}` });
      return [f.name, decoded.text];
    }),
  );
  const inWorker = [...files, ...contextFiles].reduce((n, f) => n + f.content.byteLength, 0) > importInlineBytes();

  const encoder = new TextEncoder();
  const left = new AbortController();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: ImportEvent) => {
        if (!left.signal.aborted) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      };
      try {
        if (inWorker) {
          const jobId = await enqueueImport(account, slug, options, files, contextFiles);
          for await (const event of followImportJob(account, jobId, left.signal)) send(event);
        } else {
          const importRequest = { study: slug, format: options.format, files, annotator: options.annotator, context, update: options.update, skipInvalidRows: options.skipInvalidRows, primary: options.primary, createdById: account.id, importer: account, onProgress: (progress: ImportProgress) => send({ progress }) };
          const result = await (options.dryRun ? previewImport(importRequest) : runImport(importRequest));
          send({ result });
          await announceImport(slug, result);
        }
      } catch (error) {
        send({ error: publicError(error).userMessage });
      }
      if (!left.signal.aborted) controller.close();
    },
    // The browser left: stop following (a worker's import goes on; an import in place finishes too).
    cancel() {
      left.abort();
    },
  });
  return new Response(stream, { headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
}

export const POST = handler(upload, { accepts: "multipart", maxBytes: importMaxBytes() });
