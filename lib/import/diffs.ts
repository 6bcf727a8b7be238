/**
 * Diffs are checked at import: a hunk whose header counts do not match its lines
 * would show annotators "This diff cannot be read". When the file gives the old and new files,
 * the diff is rebuilt from them (and the summary says so); otherwise it is an error naming the
 * diff's line. CRLF line ends are read as LF.
 */
import { DiffParseError, parseUnifiedDiff, unifiedDiff } from "@/lib/diff";
import type { StudyBundle } from "./bundle";
import type { ErrorCollector } from "./errors";

/** Checks every code change's diff; returns the warnings of the diffs rebuilt. */
export function checkDiffs(bundle: StudyBundle, errors: ErrorCollector): string[] {
  const warnings: string[] = [];
  for (const change of bundle.codeChanges) {
    if (change.diff.trim() === "") continue;
    // Sheets saved on Windows end the diff's lines with CRLF; the viewer reads LF lines.
    if (change.diff.includes("\r\n")) change.diff = change.diff.replace(/\r\n/g, "\n");
    try {
      parseUnifiedDiff(change.diff);
    } catch (error) {
      if (!(error instanceof DiffParseError)) throw error;
      const place = `${change.at.file}: row ${change.at.row ?? change.at.line}`;
      if (change.oldFile !== null && change.newFile !== null && change.oldFile !== change.newFile) {
        change.diff = unifiedDiff(change.oldFile, change.newFile, { path: change.filePath || "file" });
        warnings.push(`${place}: code change ${change.externalId}: the diff cannot be read (${error.message}); rebuilt from old_file and new_file`);
      } else {
        errors.add(change.at, "diff", `the diff cannot be read (${error.message}); give old_file and new_file to rebuild it, or correct the hunk header`);
      }
    }
  }
  return warnings;
}
