/**
 * A folder export (Parquet tables, a Hugging Face dataset) as one download: a ZIP archive of its
 * files, written with fflate. The entries carry a fixed time, so the same files give the same bytes.
 */
import { zipSync } from "fflate";

export interface ExportFile {
  /** The path inside the folder, with `/` between parts (`data/review-rating.parquet`). */
  path: string;
  bytes: Uint8Array;
}

/** 1 January 1980, the first time a ZIP entry can hold (MS-DOS dates). */
const ENTRY_TIME = new Date(1980, 0, 1);

/** The files as a ZIP archive under the folder `root`: Parquet tables stored (they are compressed already), other files deflated. */
export function zipFolder(root: string, files: readonly ExportFile[]): Uint8Array<ArrayBuffer> {
  // fflate allocates its output on a plain ArrayBuffer (never shared), as a Response body needs.
  return zipSync(Object.fromEntries(files.map((file) => [`${root}/${file.path}`, [file.bytes, { level: file.path.endsWith(".parquet") ? 0 : 6, mtime: ENTRY_TIME }]]))) as Uint8Array<ArrayBuffer>;
}
