/**
 * `npm run cli -- export --study SLUG --format FORMAT --out PATH [--annotator NAME]`: streams
 * an export to a file. `long` and `wide` write CSV, or JSONL when PATH ends in .jsonl, and take
 * filters: `--status submitted|draft`, `--annotator` (id or name), `--from`/`--to` (saving dates, `to` exclusive).
 * Gold items (known answers, lib/data/gold) are left out unless `--include-gold`, as on the page.
 * CSV cells that a spreadsheet would read as formulas are neutralised with a leading `'`, as on the
 * page; `--raw` writes the texts as they are, for scripts. `parquet` writes the long export's
 * rows into the folder PATH, one Parquet table per task (TASK.parquet), with the same filters;
 * `hf` lays the folder out as a Hugging Face dataset: the tables under data/ and a dataset card
 * (README.md: YAML metadata with `--license`, the codebook, counts, agreement with CIs).
 */
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CliError, hasSwitch, optionalFlag, type ParsedArgs, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { EXPORT_FORMATS, isDatasetFormat, isExportFormat, type ExportFormat } from "@/lib/export";
import { LICENSE_ID } from "@/lib/export/formats";
import { COMMAND_LINE, findLedStudy } from "@/lib/data/study-access";
import { datasetFiles, prepareExport, streamExport } from "@/lib/data/exports";

/** `long`/`wide` take their CSV or JSONL form from the output's extension; `parquet` is the long export's rows as Parquet. */
function exportFormat(name: string, out: string): ExportFormat {
  if (isDatasetFormat(name)) return "long-jsonl";
  const resolved = name === "long" || name === "wide" ? `${name}-${out.toLowerCase().endsWith(".jsonl") ? "jsonl" : "csv"}` : name;
  if (!isExportFormat(resolved)) throw new CliError(`Unknown format "${name}"; expected long, wide or one of ${EXPORT_FORMATS.join(", ")}`);
  return resolved;
}

function dateFlag(args: ParsedArgs, name: string): Date | undefined {
  const value = optionalFlag(args, name);
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new CliError(`--${name} must be a date (2026-11-24) or time, got "${value}"`);
  return date;
}

const command: Command = {
  name: "export",
  usage: `export --study SLUG --format long|wide|parquet|hf|${EXPORT_FORMATS.join("|")} --out PATH [--license SPDX] [--annotator NAME] [--status submitted|draft] [--from DATE] [--to DATE] [--include-gold] [--raw]`,
  async run(args) {
    const slug = requireFlag(args, "study");
    const out = requireFlag(args, "out");
    const named = requireFlag(args, "format");
    const format = exportFormat(named, out);
    const dataset = isDatasetFormat(named) ? named : undefined;
    const license = optionalFlag(args, "license") ?? "other";
    if (dataset && !LICENSE_ID.test(license)) throw new CliError(`--license must be an SPDX identifier (cc-by-4.0, mit, ...) or other, got "${license}"`);
    const study = await findLedStudy(COMMAND_LINE, slug);
    if (!study) throw new CliError(`No study "${slug}"`);
    const annotator = optionalFlag(args, "annotator");
    const status = optionalFlag(args, "status");
    if (status !== undefined && status !== "submitted" && status !== "draft") throw new CliError(`--status must be submitted or draft, got "${status}"`);
    const filter = { annotator, status, from: dateFlag(args, "from"), to: dateFlag(args, "to") } as const;
    const includeGold = hasSwitch(args, "include-gold");
    const raw = hasSwitch(args, "raw");
    // Refused (no data for the format, an unknown annotator) before the file is made.
    const prepared = await prepareExport({ studyId: study.id, format, annotator, filter, includeGold, raw });
    if (dataset) {
      // A folder: one Parquet table per task; hf puts them under data/ beside the dataset card.
      const { files, tables } = await datasetFiles(dataset, study, prepared, license);
      for (const file of files) {
        const target = path.join(out, file.path);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, file.bytes);
      }
      return { study: slug, format: dataset, out, tables: tables.map(({ task, file, rows, buffer }) => ({ task, file, rows, bytes: buffer.byteLength })) };
    }
    const file = createWriteStream(out);
    await pipeline(Readable.from(streamExport(prepared)), file);
    return { study: slug, format, out, bytes: file.bytesWritten };
  },
};
export default command;
