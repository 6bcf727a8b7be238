/**
 * Upload import for leads: multipart form with `format`, `files`, optional `context` files,
 * `annotator`, `update` and `dryRun` (preview: everything is checked, nothing is written).
 * Answers NDJSON: `{"progress": …}` lines while parsing and writing, then `{"result": …}`.
 */
import { z } from "zod";
import { LEAD_ROLES, requireApiUser } from "@/lib/auth/session";
import { requireImportTarget } from "@/lib/data/study-access";
import { AppError, publicError } from "@/lib/errors";
import { importMaxBytes } from "@/lib/http/body";
import { handler } from "@/lib/http/respond";
import { IMPORT_FORMATS, previewImport, runImport, type ImportFile, type ImportProgress, type ImportResult } from "@/lib/import";
import { decodeUtf8 } from "@/lib/import/text";

export const dynamic = "force-dynamic";

const formSchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  annotator: z.string().trim().max(200).optional().transform((v) => v || undefined),
  update: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  dryRun: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  skipInvalidRows: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
});

async function filesOf(form: FormData, field: string): Promise<ImportFile[]> {
  const files = form.getAll(field).filter((value): value is File => value instanceof File && value.name !== "");
  return Promise.all(files.map(async (file) => ({ name: file.name, content: new Uint8Array(await file.arrayBuffer()) })));
}

async function upload(_request: Request, { params }: { params: Promise<{ slug: string }> }, form: FormData): Promise<Response> {
  const user = await requireApiUser(LEAD_ROLES);
  const { slug } = await params;
  // Refused before the answer starts streaming: another lead's study is 404 (as if absent).
  await requireImportTarget(user, slug);
  const options = formSchema.parse(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")));
  const files = await filesOf(form, "files");
  const context = new Map(
    (await filesOf(form, "context")).map((f) => {
      const decoded = decodeUtf8(f.content);
      if (!decoded.ok) throw new AppError("INVALID_INPUT", { message: `context file ${f.name}: ${decoded.message}` });
      return [f.name, decoded.text];
    }),
  );

  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: { progress: ImportProgress } | { result: ImportResult } | { error: string }) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      const importRequest = { study: slug, format: options.format, files, annotator: options.annotator, context, update: options.update, skipInvalidRows: options.skipInvalidRows, createdById: user.id, importer: user, onProgress: (progress: ImportProgress) => send({ progress }) };
      try {
        send({ result: await (options.dryRun ? previewImport(importRequest) : runImport(importRequest)) });
      } catch (error) {
        send({ error: publicError(error).userMessage });
      }
      controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
}

export const POST = handler(upload, { accepts: "multipart", maxBytes: importMaxBytes() });
