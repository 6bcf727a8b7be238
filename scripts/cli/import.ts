/**
 * `npm run cli -- import --study SLUG --format FORMAT FILE... [--annotator NAME] [--context DIR]
 * [--update] [--dry-run]`: imports files in one transaction and prints what was created,
 * updated and left unchanged per table; refuses with every error (file, row, field) otherwise.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { CliError, hasSwitch, optionalFlag, requireFlag, type ParsedArgs } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { decodeUtf8 } from "@/lib/import/text";
import { formatImportErrors, IMPORT_FORMATS, isImportFormat, type ContextFiles, type ImportProgress } from "@/lib/import";
import { previewImport, runImport } from "@/lib/data/imports";

const SWITCHES = ["update", "dry-run", "skip-invalid-rows", "primary"];

/** FILE arguments; a switch written before a file (`--update a.csv`) does not swallow the file. */
function fileArguments(args: ParsedArgs): string[] {
  const swallowed = SWITCHES.map((s) => args.flags.get(s)).filter((v): v is string => typeof v === "string");
  return [...swallowed, ...args.positional];
}

/** Every file of the context folder (CRScore `test{index}_{old,new}.py`), by name. */
function readContext(dir: string): ContextFiles {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!statSync(file).isFile()) continue;
    const decoded = decodeUtf8(readFileSync(file));
    if (!decoded.ok) throw new CliError(`context file ${file}: ${decoded.message}`);
    files.set(name, decoded.text);
  }
  return files;
}

/** A progress bar on stderr when it is a terminal and the work is long. */
function progressBar(): (progress: ImportProgress) => void {
  let last = "";
  return ({ phase, file, done, total }) => {
    if (!process.stderr.isTTY || total < 2000) return;
    const width = 30;
    const filled = Math.round((width * done) / total);
    const line = `${phase} ${file} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${Math.floor((100 * done) / total)}% ${done}/${total}`;
    if (line === last) return;
    last = line;
    process.stderr.write(`\r${line}${done === total ? "\n" : ""}`);
  };
}

const command: Command = {
  name: "import",
  usage: `import --study SLUG --format ${IMPORT_FORMATS.join("|")} FILE... [--annotator NAME] [--context DIR] [--update] [--dry-run] [--skip-invalid-rows] [--primary]`,
  async run(args) {
    const format = requireFlag(args, "format");
    if (!isImportFormat(format)) throw new CliError(`Unknown format "${format}"; expected one of ${IMPORT_FORMATS.join(", ")}`);
    const paths = fileArguments(args);
    if (paths.length === 0) throw new CliError("Name at least one FILE to import");
    const contextDir = optionalFlag(args, "context");
    const request = {
      study: requireFlag(args, "study"),
      format,
      files: paths.map((p) => ({ name: path.basename(p), content: readFileSync(p) })),
      annotator: optionalFlag(args, "annotator"),
      context: contextDir === undefined ? undefined : readContext(contextDir),
      update: hasSwitch(args, "update"),
      skipInvalidRows: hasSwitch(args, "skip-invalid-rows"),
      primary: hasSwitch(args, "primary"),
      onProgress: progressBar(),
    };
    const result = hasSwitch(args, "dry-run") ? await previewImport(request) : await runImport(request);
    if (result.status === "refused") throw new Error(`import refused, nothing was written:\n${formatImportErrors(result.errors, result.totalErrors)}`);
    return { status: result.status, ...result.summary };
  },
};
export default command;
