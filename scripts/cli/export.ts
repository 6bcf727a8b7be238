/**
 * `npm run cli -- export --study SLUG --format FORMAT --out PATH [--annotator NAME]`: streams
 * an export to a file. `long` and `wide` write CSV, or JSONL when PATH ends in .jsonl, and take
 * filters: `--status submitted|draft`, `--annotator` (id or name), `--from`/`--to` (saving dates, `to` exclusive).
 * Gold items (known answers, lib/data/gold) are left out unless `--include-gold`, as on the page.
 * CSV cells that a spreadsheet would read as formulas are neutralised with a leading `'`, as on the
 * page; `--raw` writes the texts as they are, for scripts. `parquet` writes the long export's
 * rows into the folder PATH, one Parquet table per task (TASK.parquet), with the same filters.
 */
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CliError, hasSwitch, optionalFlag, type ParsedArgs, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { findStudy } from "@/lib/data/studies";
import { EXPORT_FORMATS, isExportFormat, type ExportFormat } from "@/lib/export";
import { parquetTablesOfLong } from "@/lib/export/parquet";
import { prepareExport, streamExport } from "@/lib/data/exports";

/** `long`/`wide` take their CSV or JSONL form from the output's extension; `parquet` is the long export's rows as Parquet. */
function exportFormat(name: string, out: string): ExportFormat {
  if (name === "parquet") return "long-jsonl";
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
  usage: `export --study SLUG --format long|wide|parquet|${EXPORT_FORMATS.join("|")} --out PATH [--annotator NAME] [--status submitted|draft] [--from DATE] [--to DATE] [--include-gold] [--raw]`,
  async run(args) {
    const slug = requireFlag(args, "study");
    const out = requireFlag(args, "out");
    const format = exportFormat(requireFlag(args, "format"), out);
    const study = await findStudy({ slug });
    if (!study) throw new CliError(`No study "${slug}"`);
    const annotator = optionalFlag(args, "annotator");
    const status = optionalFlag(args, "status");
    if (status !== undefined && status !== "submitted" && status !== "draft") throw new CliError(`--status must be submitted or draft, got "${status}"`);
    const filter = { annotator, status, from: dateFlag(args, "from"), to: dateFlag(args, "to") } as const;
    const includeGold = hasSwitch(args, "include-gold");
    const raw = hasSwitch(args, "raw");
    // Refused (no data for the format, an unknown annotator) before the file is made.
    const prepared = await prepareExport({ studyId: study.id, format, annotator, filter, includeGold, raw });
    if (requireFlag(args, "format") === "parquet") {
      // A folder: one Parquet table per task.
      const tables = await parquetTablesOfLong(streamExport(prepared));
      mkdirSync(out, { recursive: true });
      for (const table of tables) writeFileSync(path.join(out, table.file), new Uint8Array(table.buffer));
      return { study: slug, format: "parquet", out, tables: tables.map(({ task, file, rows, buffer }) => ({ task, file, rows, bytes: buffer.byteLength })) };
    }
    const file = createWriteStream(out);
    await pipeline(Readable.from(streamExport(prepared)), file);
    return { study: slug, format, out, bytes: file.bytesWritten };
  },
};
export default command;
