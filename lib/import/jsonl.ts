/**
 * `jsonl`: the product's own format (jsonl-schema.ts, docs/jsonl-format.md), one code change
 * per line. Lines are checked against the schema, then for references within the line
 * (links and corrections name pseudo-references of the same change), ids unique where they
 * are keys, and scores on the study's Likert scale.
 */
import type { z } from "zod";
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { AnnotatorRef, ReviewInput, CodeChangeInput, JsonObject, PseudoReferenceInput, PullRequestInput, StudyBundle } from "./bundle";
import type { ErrorCollector, SourceLocation } from "./errors";
import { findUnsafeText } from "@/lib/validation/text";
import { readText } from "./file";
import { reviewSchema, claimJudgementSchema, codeChangeLineSchema, commentFilterSchema, pseudoReferenceSchema, referenceGradeSchema, reviewRatingSchema, type ParsedCodeChangeLine } from "./jsonl-schema";
import { likertProblem, type LikertScale, type ParseResult, type Parser } from "./parser";

type Line = ParsedCodeChangeLine;
type Metadata = Line["metadata"];

/** JSON path as written in messages: reviews[0].grades[1].grade. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`)).join("");
}

function metadataObject(value: Metadata, at: SourceLocation, field: string, errors: ErrorCollector): JsonObject {
  if (value === null || value === undefined) return {};
  if (typeof value !== "string") return value as JsonObject;
  try {
    const parsed = JSON.parse(value) as unknown;
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as JsonObject;
  } catch {
    // reported below
  }
  errors.add(at, field, "expected a JSON object, or a string holding one");
  return {};
}

function annotatorOf(annotation: { annotator: string; annotatorId?: string | null }): AnnotatorRef {
  return { name: annotation.annotator, id: annotation.annotatorId ?? null };
}

/**
 * An annotation with its annotator and bookkeeping, then its own `fields`. One literal: spreading
 * a bookkeeping object into each annotation (\`{ ...bookkeeping, grade }\`) made V8 clone it
 * slowly, about half of the parse of a 100,000-review file.
 */
function annotationOf<Fields extends object>(annotation: { annotator: string; annotatorId?: string | null; timeSpentMs?: number | null; createdAt?: string | null; updatedAt?: string | null }, at: SourceLocation, fields: Fields) {
  return {
    annotator: annotatorOf(annotation),
    timeSpentMs: annotation.timeSpentMs || null,
    createdAt: annotation.createdAt ? new Date(annotation.createdAt) : null,
    updatedAt: annotation.updatedAt ? new Date(annotation.updatedAt) : null,
    at,
    ...fields,
  };
}

/** Reports ids that occur twice in `items` (field `path[i].id`). */
function checkUniqueIds(items: readonly { id: string }[], path: string, at: SourceLocation, errors: ErrorCollector): void {
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const earlier = seen.get(item.id);
    if (earlier !== undefined) errors.add(at, `${path}[${i}].id`, `id "${item.id}" is already used by ${path}[${earlier}]`);
    seen.set(item.id, i);
  });
}

/** Reports annotators who annotate one item twice. */
function checkOneAnnotationPerAnnotator(items: readonly { annotator: string }[], path: string, at: SourceLocation, errors: ErrorCollector): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const key = item.annotator.toLowerCase();
    if (seen.has(key)) errors.add(at, `${path}[${i}].annotator`, `${item.annotator} already has an annotation here`);
    seen.add(key);
  });
}

/** Ids of a line's pseudo-references (links and corrections must name one of them). */
const pseudoReferenceIdsOf = (line: Line) => new Set((line.pseudoReferences ?? []).map((r) => r.id));

function pseudoReferencesOfLine(line: Line, at: SourceLocation, errors: ErrorCollector, ids = pseudoReferenceIdsOf(line)): PseudoReferenceInput[] {
  const references = line.pseudoReferences ?? [];
  checkUniqueIds(references, "pseudoReferences", at, errors);
  return references.map((reference, i) => {
    const path = `pseudoReferences[${i}]`;
    if (reference.corrects && !ids.has(reference.corrects)) errors.add(at, `${path}.corrects`, `no pseudo-reference "${reference.corrects}" in this code change`);
    if (reference.kind === "ANNOTATOR_ADDED" && !reference.addedBy) errors.add(at, `${path}.addedBy`, "an ANNOTATOR_ADDED pseudo-reference names the annotator who added it");
    checkOneAnnotationPerAnnotator(reference.judgements ?? [], `${path}.judgements`, at, errors);
    return {
      externalId: reference.id,
      text: reference.text,
      kind: reference.kind,
      source: reference.source ?? reference.addedBy ?? "",
      position: reference.position ?? i,
      addedBy: reference.addedBy ? { name: reference.addedBy, id: reference.addedById ?? null } : null,
      corrects: reference.corrects ?? null,
      restated: false,
      judgements: (reference.judgements ?? []).map((j) => annotationOf(j, at, { code: j.code ?? null, necessary: j.necessary ?? null, errorType: j.errorType ?? null, note: j.note || null })),
      at,
    };
  });
}

function checkScores(scores: Record<string, number>, path: string, likert: LikertScale, at: SourceLocation, errors: ErrorCollector): void {
  for (const [dimension, score] of Object.entries(scores)) {
    if (!likert.dimensions.includes(dimension)) errors.add(at, `${path}.${dimension}`, `not a Likert dimension of the study (${likert.dimensions.join(", ")})`);
    else {
      const problem = likertProblem(score, likert);
      if (problem) errors.add(at, `${path}.${dimension}`, problem);
    }
  }
}

function reviewsOfLine(line: Line, likert: LikertScale, at: SourceLocation, errors: ErrorCollector, pseudoReferenceIds = pseudoReferenceIdsOf(line)): ReviewInput[] {
  const reviews = line.reviews ?? [];
  checkUniqueIds(reviews, "reviews", at, errors);
  return reviews.map((review, i) => {
    const path = `reviews[${i}]`;
    const ratings = review.ratings ?? [];
    ratings.forEach((rating, k) => {
      checkScores(rating.scores, `${path}.ratings[${k}].scores`, likert, at, errors);
      if ((rating.partiallyAddresses ?? []).some((target) => rating.addresses?.includes(target))) {
        errors.add(at, `${path}.ratings[${k}].partiallyAddresses`, "a pseudo-reference is listed both in addresses and in partiallyAddresses");
      }
      for (const field of ["addresses", "partiallyAddresses"] as const) {
        for (const target of rating[field] ?? []) {
          if (!pseudoReferenceIds.has(target)) errors.add(at, `${path}.ratings[${k}].${field}`, `no pseudo-reference "${target}" in this code change`);
        }
      }
    });
    for (const key of ["ratings", "grades", "commentFilters"] as const) checkOneAnnotationPerAnnotator(review[key] ?? [], `${path}.${key}`, at, errors);
    return {
      externalId: review.id,
      system: review.system,
      text: review.text,
      isReference: review.isReference ?? false,
      position: review.position ?? i,
      ratings: ratings.map((r) => annotationOf(r, at, { scores: r.scores, comment: r.comment || null, addresses: r.addresses ?? [], partiallyAddresses: r.partiallyAddresses ?? [] })),
      grades: (review.grades ?? []).map((g) => annotationOf(g, at, { grade: g.grade, comment: g.comment || null })),
      commentFilters: (review.commentFilters ?? []).map((f) => annotationOf(f, at, { highQuality: f.highQuality, justification: f.justification || null })),
      at,
    };
  });
}

function pullRequestOfLine(line: Line, at: SourceLocation, errors: ErrorCollector): PullRequestInput | null {
  const pr = line.pullRequest;
  if (!pr) return null;
  return { externalId: pr.id, repository: pr.repository || null, title: pr.title || null, description: pr.description || null, metadata: metadataObject(pr.metadata, at, "pullRequest.metadata", errors), at };
}

/** Lines naming the same pull request must describe it alike. */
function mergePullRequest(known: Map<string, PullRequestInput>, pr: PullRequestInput, errors: ErrorCollector): void {
  const earlier = known.get(pr.externalId);
  if (!earlier) {
    known.set(pr.externalId, pr);
    return;
  }
  const same = earlier.repository === pr.repository && earlier.title === pr.title && earlier.description === pr.description && JSON.stringify(earlier.metadata) === JSON.stringify(pr.metadata);
  if (!same) errors.add(pr.at, "pullRequest", `pull request "${pr.externalId}" is described differently on line ${earlier.at.line}`);
}

/**
 * Elements of `value` that pass `schema`, each at its own index: a failing element leaves a
 * hole (map and forEach skip holes), so paths in later messages keep their numbers. An
 * element whose own fields pass but some of its `children` fail keeps the children that pass.
 */
function passingElements<T extends object>(value: unknown, schema: z.ZodType<T>, children: Record<string, z.ZodType> = {}): T[] {
  const passing: T[] = [];
  if (!Array.isArray(value)) return passing;
  value.forEach((element: unknown, i) => {
    const whole = schema.safeParse(element);
    if (whole.success) passing[i] = whole.data;
    else if (element !== null && typeof element === "object") {
      const empty = Object.fromEntries(Object.keys(children).map((key) => [key, []]));
      const own = schema.safeParse({ ...element, ...empty });
      const record = element as Record<string, unknown>;
      if (own.success) passing[i] = { ...own.data, ...Object.fromEntries(Object.keys(children).map((key) => [key, passingElements(record[key], children[key] as z.ZodType<object>)])) };
    }
  });
  return passing;
}

/** Ids of the pseudo-references a line names, valid or not, so that a link to an invalid one is not also reported as unknown. */
function namedPseudoReferenceIds(json: Record<string, unknown>): Set<string> {
  const references = Array.isArray(json.pseudoReferences) ? (json.pseudoReferences as unknown[]) : [];
  return new Set(references.map((r) => (r as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === "string"));
}

/**
 * The checks within a line that fails its schema, run on the parts that pass it, so that a
 * preview lists every error of the line at once, not the schema's first.
 */
function checkPassingParts(json: unknown, likert: LikertScale, at: SourceLocation, errors: ErrorCollector): void {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return;
  const record = json as Record<string, unknown>;
  const ids = namedPseudoReferenceIds(record);
  const partial = {
    pseudoReferences: passingElements(record.pseudoReferences, pseudoReferenceSchema, { judgements: claimJudgementSchema }),
    reviews: passingElements(record.reviews, reviewSchema, { ratings: reviewRatingSchema, grades: referenceGradeSchema, commentFilters: commentFilterSchema }),
  } as Line;
  pseudoReferencesOfLine(partial, at, errors, ids);
  reviewsOfLine(partial, likert, at, errors, ids);
}

function issuesToErrors(issues: readonly z.core.$ZodIssue[], at: SourceLocation, errors: ErrorCollector): void {
  for (const issue of issues) errors.add(at, issue.path.length ? jsonPath(issue.path) : undefined, issue.message);
}

/** One code change's JSON text: a line of a JSONL file, or an element of a JSON array; `index` is its place in the file (the default position). */
interface ChangeText {
  raw: string;
  line: number;
  index: number;
}

/** The non-blank lines of a JSONL file. */
function jsonLines(text: string): ChangeText[] {
  const lines: ChangeText[] = [];
  text.split("\n").forEach((line, n) => {
    const raw = line.replace(/\r$/, "");
    if (raw.trim() !== "") lines.push({ raw, line: n + 1, index: n });
  });
  return lines;
}

/**
 * The elements of a file holding one JSON array of code changes (pandas' `to_json(orient="records")`,
 * a pretty-printed `.json`), each with the line it starts on, cut at the array's top-level commas;
 * null when the text is not one well-formed array (read as JSONL then, whose errors name the lines).
 */
export function jsonArrayElements(text: string): ChangeText[] | null {
  const start = text.search(/\S/);
  if (text[start] !== "[") return null;
  const elements: ChangeText[] = [];
  let depth = 0;
  let line = 1 + countNewlines(text, 0, start);
  let from = start + 1;
  let fromLine = line;
  let quoted = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "[" || c === "{") depth++;
    else if ((c === "]" || c === "}") && --depth === 0) {
      addElement(text.slice(from, i), fromLine);
      return text.slice(i + 1).trim() === "" ? elements : null;
    } else if (c === "," && depth === 1) {
      addElement(text.slice(from, i), fromLine);
      from = i + 1;
      fromLine = line;
    }
  }
  return null;

  function addElement(raw: string, rawLine: number): void {
    const skipped = raw.search(/\S/);
    if (skipped === -1) return;
    elements.push({ raw: raw.trim(), line: rawLine + countNewlines(raw, 0, skipped), index: elements.length });
  }
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

export const parseJsonl: Parser = (file, options, errors): ParseResult => {
  const bundle: StudyBundle = { tasks: [], pullRequests: [], codeChanges: [] };
  const text = readText(file, errors);
  if (text === null) return { bundle, warnings: [] };
  const lineOfId = new Map<string, number>();
  const pullRequests = new Map<string, PullRequestInput>();
  const array = jsonArrayElements(text);
  for (const { raw, line: n, index } of array ?? jsonLines(text)) {
    const at = { file: file.name, line: n };
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      errors.add(at, undefined, `not valid JSON (${(error as Error).message}); the ${array ? "element" : "line"} may be truncated`);
      continue;
    }
    // JSON escapes can still spell what UTF-8 bytes cannot: \u0000 and lone surrogates (the
    // decoded text holds neither, so only lines with an escape are searched).
    const unsafe = raw.includes("\\u") && findUnsafeText(json);
    if (unsafe) {
      errors.add(at, undefined, unsafe);
      continue;
    }
    const id = (json as { id?: unknown } | null)?.id;
    if (typeof id === "string") {
      const earlier = lineOfId.get(id);
      if (earlier !== undefined) errors.add(at, "id", `code change "${id}" is already on line ${earlier}`);
      else lineOfId.set(id, at.line);
    }
    const parsed = codeChangeLineSchema.safeParse(json);
    if (!parsed.success) {
      issuesToErrors(parsed.error.issues, at, errors);
      checkPassingParts(json, options.likert, at, errors);
      continue;
    }
    const line = parsed.data;
    const pullRequest = pullRequestOfLine(line, at, errors);
    if (pullRequest) mergePullRequest(pullRequests, pullRequest, errors);
    bundle.codeChanges.push({
      externalId: line.id,
      pullRequest: pullRequest?.externalId ?? null,
      filePath: line.filePath || null,
      language: line.language,
      diff: line.diff,
      oldFile: line.oldFile || null,
      newFile: line.newFile || null,
      metadata: metadataObject(line.metadata, at, "metadata", errors),
      position: line.position ?? index,
      pseudoReferences: pseudoReferencesOfLine(line, at, errors),
      reviews: reviewsOfLine(line, options.likert, at, errors),
      at,
    });
  }
  bundle.pullRequests = [...pullRequests.values()];
  bundle.tasks = impliedTasks(bundle.codeChanges);
  return { bundle, warnings: array ? [`${file.name}: read as a JSON array of ${array.length} code change(s)`] : [] };
};

/**
 * Task types a JSONL file implies: those its annotations belong to, or, for data without
 * annotations, claim verification when it has pseudo-references and review rating when it
 * has reviews.
 */
function impliedTasks(changes: readonly CodeChangeInput[]): TaskType[] {
  const types = new Set<TaskType>();
  let references = false;
  let reviews = false;
  for (const change of changes) {
    references ||= change.pseudoReferences.length > 0;
    reviews ||= change.reviews.length > 0;
    if (change.pseudoReferences.some((r) => r.judgements.length > 0)) types.add("CLAIM_VERIFICATION");
    for (const review of change.reviews) {
      if (review.ratings.length) types.add("REVIEW_RATING");
      if (review.grades.length) types.add("REFERENCE_GRADING");
      if (review.commentFilters.length) types.add("COMMENT_FILTERING");
    }
  }
  if (types.size === 0 && references) types.add("CLAIM_VERIFICATION");
  if (types.size === 0 && reviews) types.add("REVIEW_RATING");
  return [...types];
}
