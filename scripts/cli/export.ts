/**
 * `npm run cli -- export --study SLUG --format FORMAT --out PATH [--annotator NAME]`: streams
 * an export to a file. `long` and `wide` write CSV, or JSONL when PATH ends in .jsonl.
 */
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CliError, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { findStudyBySlug } from "@/lib/data/studies";
import { EXPORT_FORMATS, isExportFormat, streamExport, type ExportFormat } from "@/lib/export";

/** `long`/`wide` take their CSV or JSONL form from the output's extension. */
function exportFormat(name: string, out: string): ExportFormat {
  const resolved = name === "long" || name === "wide" ? `${name}-${out.toLowerCase().endsWith(".jsonl") ? "jsonl" : "csv"}` : name;
  if (!isExportFormat(resolved)) throw new CliError(`Unknown format "${name}"; expected long, wide or one of ${EXPORT_FORMATS.join(", ")}`);
  return resolved;
}

const command: Command = {
  name: "export",
  usage: `export --study SLUG --format long|wide|${EXPORT_FORMATS.join("|")} --out PATH [--annotator NAME]`,
  async run(args) {
    const slug = requireFlag(args, "study");
    const out = requireFlag(args, "out");
    const format = exportFormat(requireFlag(args, "format"), out);
    const study = await findStudyBySlug(slug);
    if (!study) throw new CliError(`No study "${slug}"`);
    const file = createWriteStream(out);
    await pipeline(Readable.from(streamExport({ studyId: study.id, format, annotator: optionalFlag(args, "annotator") })), file);
    return { study: slug, format, out, bytes: file.bytesWritten };
  },
};
export default command;
