/**
 * Import errors name the file, the line or row, the field and what was expected. The first MAX_REPORTED_ERRORS are collected and reported at
 * once; any error refuses the whole import.
 */

/** Where a value came from: a JSONL line, or a spreadsheet row (header = row 1). */
export interface SourceLocation {
  file: string;
  /** 1-based physical line (JSONL; CSV: the line the record starts on). */
  line?: number;
  /** 1-based spreadsheet row, the header being row 1 (CSV and XLSX). */
  row?: number;
}

export interface ImportError extends SourceLocation {
  /** Column header or JSON path of the offending value; absent for whole-file errors. */
  field?: string;
  message: string;
}

export const MAX_REPORTED_ERRORS = 50;

/** Collects errors up to MAX_REPORTED_ERRORS and counts the rest; `all` keeps every one (imports that skip faulty rows list them all). */
export class ErrorCollector {
  readonly errors: ImportError[] = [];
  readonly all: ImportError[] = [];
  total = 0;

  add(at: SourceLocation, field: string | undefined, message: string): void {
    this.total++;
    const error = { ...at, ...(field === undefined ? {} : { field }), message };
    this.all.push(error);
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push(error);
  }

  /** True once enough errors are collected that parsing further is pointless. */
  get full(): boolean {
    return this.errors.length >= MAX_REPORTED_ERRORS;
  }

  get empty(): boolean {
    return this.total === 0;
  }
}

/** "file:row 5 (line 9): field: message". */
export function formatImportError(error: ImportError): string {
  const position = [error.row === undefined ? null : `row ${error.row}`, error.line === undefined ? null : `line ${error.line}`].filter((p) => p !== null);
  const place = position.length === 0 ? error.file : `${error.file}: ${position.length === 2 ? `${position[0]} (${position[1]})` : position[0]}`;
  return `${place}: ${error.field ? `${error.field}: ` : ""}${error.message}`;
}

/** All errors, one per line, with a closing count of those left out. */
export function formatImportErrors(errors: readonly ImportError[], total = errors.length): string {
  const lines = errors.map(formatImportError);
  if (total > errors.length) lines.push(`… and ${total - errors.length} more error(s)`);
  return lines.join("\n");
}

/** Errors in the order of the files, then of their rows or lines (whole-file errors first). */
export function inFileOrder(errors: readonly ImportError[], files: readonly string[]): ImportError[] {
  const fileIndex = (e: ImportError) => files.indexOf(e.file);
  const place = (e: ImportError) => e.row ?? e.line ?? 0;
  return [...errors].sort((a, b) => fileIndex(a) - fileIndex(b) || place(a) - place(b));
}
