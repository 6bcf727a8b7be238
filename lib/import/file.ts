/** The files an import reads, as uploaded or named on the command line. */
import type { ErrorCollector } from "./errors";
import { decodeUtf8 } from "./text";

export interface ImportFile {
  /** The file's name (no directory): used in errors and, for CRScore sheets, to name the annotator. */
  name: string;
  content: Uint8Array;
}

/** The files a multipart form's field holds (a form's empty file input sends one without a name: left out). */
export async function uploadedFiles(form: FormData, field: string): Promise<ImportFile[]> {
  const files = form.getAll(field).filter((value): value is File => value instanceof File && value.name !== "");
  return Promise.all(files.map(async (file) => ({ name: file.name, content: new Uint8Array(await file.arrayBuffer()) })));
}

/** The file's text, or null after reporting a wrong encoding or an empty file. */
export function readText(file: ImportFile, errors: ErrorCollector): string | null {
  const decoded = decodeUtf8(file.content);
  if (!decoded.ok) {
    errors.add({ file: file.name, ...(decoded.line === undefined ? {} : { line: decoded.line }) }, undefined, decoded.message);
    return null;
  }
  if (decoded.text.trim() === "") {
    errors.add({ file: file.name }, undefined, "the file is empty");
    return null;
  }
  return decoded.text;
}
