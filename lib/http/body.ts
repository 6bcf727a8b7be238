/**
 * Reading a request body once, safely: the declared content type only (415 otherwise), a size
 * limit (413, checked on the header and while reading), valid UTF-8 and JSON (400), and no
 * string PostgreSQL cannot store (NUL, lone surrogates: 400), all before any query runs.
 */
import { AppError } from "@/lib/errors";
import { findUnsafeText, unsafeTextReason } from "@/lib/validation/text";
import { env } from "@/lib/env";

export type Accepts = "json" | "multipart";
export type BodyOf<K extends Accepts> = K extends "multipart" ? FormData : unknown;

const MIB = 1024 * 1024;
export const JSON_MAX_BYTES = MIB;
/** Upload imports; CRJUDGE_IMPORT_MAX_MB raises it for large datasets. */
export const importMaxBytes = () => Math.round(env().CRJUDGE_IMPORT_MAX_MB * MIB);

const MEDIA_TYPE: Record<Accepts, string> = { json: "application/json", multipart: "multipart/form-data" };

const tooLarge = (maxBytes: number) => new AppError("PAYLOAD_TOO_LARGE", { message: `The body is larger than this route accepts (${maxBytes >= MIB ? `${maxBytes / MIB} MiB` : `${maxBytes} bytes`}).` });

export async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function parseJson(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("INVALID_INPUT", { message: "The body is not valid UTF-8." });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError("INVALID_INPUT", { message: `The body is not valid JSON: ${(error as Error).message}.` });
  }
  const unsafe = findUnsafeText(value);
  if (unsafe) throw new AppError("INVALID_INPUT", { message: unsafe });
  return value;
}

async function parseForm(bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<FormData> {
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new AppError("INVALID_INPUT", { message: "The body is not valid multipart/form-data (check the boundary)." });
  }
  for (const [field, value] of form.entries()) {
    const fieldReason = unsafeTextReason(field);
    if (fieldReason) throw new AppError("INVALID_INPUT", { message: `A form field name ${fieldReason}.` });
    const text = typeof value === "string" ? value : value.name;
    const reason = unsafeTextReason(text);
    if (reason) throw new AppError("INVALID_INPUT", { message: `${field}: ${typeof value === "string" ? "" : "the file name "}${reason}` });
  }
  return form;
}

/** The body as the route declared it; an empty JSON body is `undefined` (routes that take none). */
export async function readBody<K extends Accepts>(request: Request, accepts: K, maxBytes: number): Promise<BodyOf<K>> {
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0].trim().toLowerCase();
  const bytes = await readLimited(request, maxBytes);
  if (accepts === "json" && bytes.byteLength === 0 && mediaType === "") return undefined as BodyOf<K>;
  if (mediaType !== MEDIA_TYPE[accepts]) throw new AppError("UNSUPPORTED_MEDIA_TYPE", { message: `This route accepts ${MEDIA_TYPE[accepts]} only, not ${mediaType ? `"${mediaType.slice(0, 60)}"` : "a body without a content type"}.` });
  return (accepts === "json" ? parseJson(bytes) : await parseForm(bytes, contentType)) as BodyOf<K>;
}
