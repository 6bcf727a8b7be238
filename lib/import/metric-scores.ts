/**
 * Precomputed scores from outside (e.g. an LLM judge run elsewhere): a CSV file with a header
 * or a JSONL file of objects, one score per row, with
 *   review_id  the review's id in this product, or its external id when change_id is given
 *   change_id  optional: the code change's external id (review_id is then the review's external id)
 *   metric     the metric's name
 *   value      a finite number
 *   params     optional: the metric's signature (default the option, else "import:<file name>")
 * Every line is checked first; any error refuses the whole file, naming each bad line.
 * The scores are then written in one transaction.
 */
import { type MetricScoreInput, storeImportedScores, studyReviewKeys } from "@/lib/data/metric-scores";
import { readCsv } from "@/lib/import/csv";
import { ErrorCollector, formatImportErrors, type SourceLocation } from "@/lib/import/errors";
import { type ImportFile, readText } from "@/lib/import/file";
import { cell, findColumns, rowLocation } from "@/lib/import/sheet";
import { AppError } from "@/lib/errors";

export interface ScoreLine {
  at: SourceLocation;
  reviewId: string;
  codeChangeId: string | null;
  metric: string;
  value: number;
  signature: string | null;
}

interface RawScore {
  at: SourceLocation;
  reviewId: unknown;
  codeChangeId: unknown;
  metric: unknown;
  value: unknown;
  signature: unknown;
}

const optionalText = (v: unknown) => (v === undefined || v === null || v === "" ? null : String(v).trim());

/** Checks one row's fields; null after reporting its errors. */
function checkScore(raw: RawScore, errors: ErrorCollector): ScoreLine | null {
  const before = errors.total;
  const reviewId = optionalText(raw.reviewId);
  const metric = optionalText(raw.metric);
  if (reviewId === null) errors.add(raw.at, "review_id", "missing review id");
  if (metric === null) errors.add(raw.at, "metric", "missing metric name");
  const value = typeof raw.value === "number" ? raw.value : typeof raw.value === "string" && raw.value.trim() !== "" ? Number(raw.value) : NaN;
  if (!Number.isFinite(value)) errors.add(raw.at, "value", `${JSON.stringify(raw.value ?? null)} is not a finite number`);
  if (errors.total > before) return null;
  return { at: raw.at, reviewId: reviewId as string, codeChangeId: optionalText(raw.codeChangeId), metric: metric as string, value, signature: optionalText(raw.signature) };
}

function csvScores(file: ImportFile, errors: ErrorCollector): RawScore[] {
  const sheet = readCsv(file, errors);
  if (!sheet) return [];
  const columns = findColumns(sheet, { reviewId: { name: "review_id" }, codeChangeId: { name: "change_id", optional: true }, metric: { name: "metric" }, value: { name: "value" }, signature: { name: "params", optional: true } }, errors);
  if (!columns) return [];
  return sheet.rows.map((row) => ({
    at: rowLocation(sheet, row),
    reviewId: cell(row, columns.reviewId),
    codeChangeId: cell(row, columns.codeChangeId),
    metric: cell(row, columns.metric),
    value: cell(row, columns.value),
    signature: cell(row, columns.signature),
  }));
}

function jsonlScores(file: ImportFile, errors: ErrorCollector): RawScore[] {
  const text = readText(file, errors);
  if (text === null) return [];
  const scores: RawScore[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const at = { file: file.name, line: i + 1 };
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      errors.add(at, undefined, `not valid JSON: ${(error as Error).message}`);
      return;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      errors.add(at, undefined, "expected an object such as {\"review_id\": \"…\", \"metric\": \"…\", \"value\": 0.5}");
      return;
    }
    const o = parsed as Record<string, unknown>;
    scores.push({ at, reviewId: o.review_id, codeChangeId: o.change_id, metric: o.metric, value: o.value, signature: o.params });
  });
  return scores;
}

/** Parses a .csv or .jsonl/.ndjson score file, reporting errors per line. */
export function parseScoreFile(file: ImportFile, errors: ErrorCollector): ScoreLine[] {
  const extension = file.name.toLowerCase().split(".").pop();
  if (extension !== "csv" && extension !== "jsonl" && extension !== "ndjson") {
    errors.add({ file: file.name }, undefined, "expected a .csv or .jsonl file");
    return [];
  }
  const raw = extension === "csv" ? csvScores(file, errors) : jsonlScores(file, errors);
  return raw.map((r) => checkScore(r, errors)).filter((s): s is ScoreLine => s !== null);
}

/** A score file that cannot be imported; nothing was written. */
export class ScoreImportError extends AppError {
  constructor(message: string) {
    super("INVALID_INPUT", { message });
  }
}

export interface ScoreImportResult {
  scores: number;
  /** Rows that replaced a stored score (with `replace`) or were new. */
  written: number;
  metrics: { metric: string; signature: string; count: number }[];
}

/**
 * Imports a score file into a study: resolves every review, refuses the file on any error
 * (all reported), and writes the scores in one transaction. A score already stored under the
 * same metric and signature is kept, or replaced with `replace`.
 */
export async function importMetricScores(studyId: string, file: ImportFile, options: { signature?: string; replace?: boolean } = {}): Promise<ScoreImportResult> {
  const errors = new ErrorCollector();
  const lines = parseScoreFile(file, errors);
  const reviews = await studyReviewKeys(studyId);
  const byId = new Set(reviews.map((r) => r.id));
  const byExternal = new Map(reviews.map((r) => [`${r.codeChange.externalId}\u0000${r.externalId}`, r.id]));
  const defaultKey = options.signature ?? `import:${file.name}`;

  const rows: MetricScoreInput[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const id = line.codeChangeId === null ? (byId.has(line.reviewId) ? line.reviewId : undefined) : byExternal.get(`${line.codeChangeId}\u0000${line.reviewId}`);
    if (id === undefined) {
      errors.add(line.at, "review_id", line.codeChangeId === null ? `no review with id "${line.reviewId}" in this study (give change_id to use external ids)` : `no review "${line.reviewId}" of change "${line.codeChangeId}" in this study`);
      continue;
    }
    const signature = line.signature ?? defaultKey;
    const key = `${id}\u0000${line.metric}\u0000${signature}`;
    if (seen.has(key)) errors.add(line.at, "review_id", `a second score of ${line.metric} for this review`);
    seen.add(key);
    rows.push({ reviewId: id, metric: line.metric, signature, value: line.value, detail: { source: file.name } });
  }
  if (!errors.empty) throw new ScoreImportError(`nothing imported: ${errors.total} error(s)\n${formatImportErrors(errors.errors, errors.total)}`);
  if (rows.length === 0) throw new ScoreImportError(`nothing imported: ${file.name} holds no scores`);

  const written = await storeImportedScores(rows, { replace: options.replace });
  const counts = new Map<string, { metric: string; signature: string; count: number }>();
  for (const r of rows) {
    const k = `${r.metric}\u0000${r.signature}`;
    counts.set(k, { metric: r.metric, signature: r.signature, count: (counts.get(k)?.count ?? 0) + 1 });
  }
  return { scores: rows.length, written, metrics: [...counts.values()] };
}
