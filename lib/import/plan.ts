/**
 * Planning an import: a pure comparison of a bundle with the stored rows (snapshot.ts) that
 * decides, row by row, create / unchanged / update / conflict, and lists the rows to insert
 * (in batches, by write-bundle.ts) and the updates to make.
 *
 * Rules: external ids are the keys, so re-importing a file creates nothing. A value
 * the file does not state (null, "") never conflicts, and a value the study lacks is filled in.
 * A stated value that differs from a stored one is a conflict: reported with the file, row and
 * field, and applied only with `update`. Texts that differ only in whitespace are the same.
 * Every annotation written keeps its import run and file, and appends an AnnotationHistory row
 * (action IMPORT, for the annotator, with the run) whose values have the shapes the annotation
 * workspace logs, so imported work never looks like the annotator's own saves.
 */
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ClaimJudgement, CodeChange, CommentFilteringLabel, PseudoReference, ReferenceGrade } from "@/lib/generated/prisma/client";
import type { AnnotationKind } from "@/lib/generated/prisma/enums";
import { annotatorIdOf, type ResolvedAnnotators } from "./annotators";
import type { ReviewInput, ClaimJudgementInput, CodeChangeInput, CommentFilterInput, JsonObject, PseudoReferenceInput, PullRequestInput, ReferenceGradeInput, ReviewRatingInput, StudyBundle } from "./bundle";
import type { ImportError, SourceLocation } from "./errors";
import { separatedChangeId } from "./crscore-sheet";
import { formatImportError } from "./errors";
import { orderedIds } from "./row-ids";
import { childKey, type Snapshot, type StoredRating } from "./snapshot";
import { claimMatchKey, claimNormalizations, sameText } from "./text";
import { InvariantError } from "@/lib/errors";

export const TABLES = ["pullRequests", "codeChanges", "pseudoReferences", "reviews", "claimJudgements", "reviewRatings", "referenceGrades", "commentFilteringLabels"] as const;
export type Table = (typeof TABLES)[number];

export interface TableCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** What an import did to each table, and the claim links and history rows it added. */
export type ImportCounts = Record<Table, TableCounts> & { reviewComments: TableCounts; reviewClaimLinks: { created: number }; annotationHistory: { created: number } };

type Fields = Record<string, unknown>;

export interface RowUpdate {
  table: Table;
  id: string;
  data: Record<string, unknown>;
}

export interface Plan {
  creates: {
    pullRequests: Prisma.PullRequestCreateManyInput[];
    codeChanges: Prisma.CodeChangeCreateManyInput[];
    pseudoReferences: Prisma.PseudoReferenceCreateManyInput[];
    reviews: Prisma.ReviewCreateManyInput[];
    claimJudgements: Prisma.ClaimJudgementCreateManyInput[];
    reviewRatings: Prisma.ReviewRatingCreateManyInput[];
    reviewClaimLinks: Prisma.ReviewClaimLinkCreateManyInput[];
    referenceGrades: Prisma.ReferenceGradeCreateManyInput[];
    commentFilteringLabels: Prisma.CommentFilteringLabelCreateManyInput[];
    annotationHistory: Prisma.AnnotationHistoryCreateManyInput[];
  };
  updates: RowUpdate[];
  /** Ratings whose links are replaced: their stored links are deleted before the new ones are inserted. */
  relinkedRatings: string[];
  counts: Record<Table, TableCounts>;
  conflicts: ImportError[];
  /** Code changes told apart although they share a CodeReviewer id. */
  separatedChanges: string[];
  /** Claims matched to stored ones by normalized text, with the normalizations relied on. */
  claimNormalizations: string[];
  /** External ids of the code changes that have neither an old nor a new file after this import (the file gave none, the study had none). */
  withoutFiles: string[];
}

export interface PlanOptions {
  studyId: string;
  annotators: ResolvedAnnotators;
  /** Apply conflicting values instead of refusing them. */
  update: boolean;
  now: Date;
  /** Where the annotations come from: written with these, and history rows say IMPORT. */
  provenance: { importRunId: string; file: string };
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && !(value instanceof Date) && Object.keys(value).length === 0;
}

/** JSON with sorted keys: PostgreSQL jsonb does not keep key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string" ? sameText(a, b) : canonicalJson(a) === canonicalJson(b);
}

function shown(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : canonicalJson(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

interface Decision {
  changes: Fields;
  conflicts: { field: string; stored: unknown; incoming: unknown }[];
}

/** Compares the stated fields of a file with a stored row (see the rules above). */
export function decide(stored: Fields, incoming: Fields): Decision {
  const decision: Decision = { changes: {}, conflicts: [] };
  for (const [field, value] of Object.entries(incoming)) {
    if (isEmpty(value)) continue;
    const current = stored[field];
    if (isEmpty(current)) decision.changes[field] = value;
    else if (!sameValue(current, value)) {
      decision.changes[field] = value;
      decision.conflicts.push({ field, stored: current, incoming: value });
    }
  }
  return decision;
}

/** How an annotation kind maps between the file's fields, its columns and its history value. */
interface AnnotationSpec<Input, Stored> {
  table: "claimJudgements" | "reviewRatings" | "referenceGrades" | "commentFilteringLabels";
  history: AnnotationKind;
  /** The field naming the annotated pseudo-reference or review. */
  target: "pseudoReferenceId" | "reviewId";
  fields: (input: Input) => Fields;
  /** The same fields of a stored row; a time spent of 0 is "not recorded". */
  stored: (row: Stored) => Fields;
  /** Column values (with their defaults for unstated fields). */
  columns: (fields: Fields) => Record<string, unknown>;
  /** The value logged in AnnotationHistory (lib/annotation/values.ts shapes). */
  value: (fields: Fields) => JsonObject;
  /** Ratings: the links to the pseudo-references the review addresses are rows of their own. */
  linked?: true;
}

interface StoredAnnotation {
  id: string;
  version: number;
}

const sortedIds = (ids: readonly string[]) => [...new Set(ids)].sort();

const JUDGEMENT: AnnotationSpec<ClaimJudgementInput, ClaimJudgement> = {
  table: "claimJudgements",
  history: "CLAIM_JUDGEMENT",
  target: "pseudoReferenceId",
  fields: (j) => ({ code: j.code, necessary: j.necessary, errorType: j.errorType, note: j.note, timeSpentMs: j.timeSpentMs }),
  stored: (j) => ({ code: j.code, necessary: j.necessary, errorType: j.errorType, note: j.note, timeSpentMs: j.timeSpentMs || null }),
  columns: (f) => ({ code: f.code ?? null, necessary: f.necessary ?? null, errorType: f.errorType ?? null, note: f.note ?? "", timeSpentMs: f.timeSpentMs ?? null }),
  value: (f) => ({ code: (f.code as string) ?? null, necessary: (f.necessary as boolean) ?? null, errorType: (f.errorType as string) ?? null, note: (f.note as string) ?? "" }),
};

/** Rating fields: one per Likert dimension ("scores.conciseness"), so a file may fill in a missing dimension. */
function ratingScores(fields: Fields): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const [field, value] of Object.entries(fields)) if (field.startsWith("scores.") && typeof value === "number") scores[field.slice(7)] = value;
  return scores;
}

function ratingLinks(fields: Fields): { pseudoReferenceId: string; partial: boolean }[] {
  const full = (fields.addresses as string[] | null) ?? [];
  const partial = (fields.partiallyAddresses as string[] | null) ?? [];
  return [...full.map((id) => ({ pseudoReferenceId: id, partial: false })), ...partial.filter((id) => !full.includes(id)).map((id) => ({ pseudoReferenceId: id, partial: true }))];
}

const RATING: AnnotationSpec<ReviewRatingInput & { addressIds: string[]; partialIds: string[] }, StoredRating> = {
  table: "reviewRatings",
  history: "REVIEW_RATING",
  target: "reviewId",
  fields: (r) => ({
    ...Object.fromEntries(Object.entries(r.scores).map(([d, s]) => [`scores.${d}`, s])),
    comment: r.comment,
    timeSpentMs: r.timeSpentMs,
    addresses: sortedIds(r.addressIds),
    partiallyAddresses: sortedIds(r.partialIds),
  }),
  stored: (r) => ({
    ...Object.fromEntries(Object.entries((r.scores ?? {}) as Record<string, number>).map(([d, s]) => [`scores.${d}`, s])),
    comment: r.comment,
    timeSpentMs: r.timeSpentMs || null,
    addresses: sortedIds(r.links.filter((l) => !l.partial).map((l) => l.pseudoReferenceId)),
    partiallyAddresses: sortedIds(r.links.filter((l) => l.partial).map((l) => l.pseudoReferenceId)),
  }),
  columns: (f) => ({ scores: ratingScores(f), comment: f.comment ?? "", timeSpentMs: f.timeSpentMs ?? null }),
  value: (f) => ({ scores: ratingScores(f), links: ratingLinks(f), comment: (f.comment as string) ?? "" }),
  linked: true,
};

const GRADE: AnnotationSpec<ReferenceGradeInput, ReferenceGrade> = {
  table: "referenceGrades",
  history: "REFERENCE_GRADE",
  target: "reviewId",
  fields: (g) => ({ grade: g.grade, comment: g.comment, timeSpentMs: g.timeSpentMs }),
  stored: (g) => ({ grade: g.grade, comment: g.comment, timeSpentMs: g.timeSpentMs || null }),
  columns: (f) => ({ grade: f.grade, comment: f.comment ?? "", timeSpentMs: f.timeSpentMs ?? null }),
  value: (f) => ({ grade: f.grade as number, comment: (f.comment as string) ?? "" }),
};

const LABEL: AnnotationSpec<CommentFilterInput, CommentFilteringLabel> = {
  table: "commentFilteringLabels",
  history: "COMMENT_FILTERING_LABEL",
  target: "reviewId",
  fields: (c) => ({ highQuality: c.highQuality, justification: c.justification, timeSpentMs: c.timeSpentMs }),
  stored: (c) => ({ highQuality: c.highQuality, justification: c.justification, timeSpentMs: c.timeSpentMs || null }),
  columns: (f) => ({ highQuality: f.highQuality, justification: f.justification ?? "", timeSpentMs: f.timeSpentMs ?? null }),
  value: (f) => ({ highQuality: f.highQuality as boolean, justification: (f.justification as string) ?? "" }),
};

type Outcome = { action: "created" | "updated"; fields: Fields } | { action: "unchanged" | "refused" };

/** Builds the plan of one bundle; see planBundle. */
class Planner {
  readonly plan: Plan = {
    creates: { pullRequests: [], codeChanges: [], pseudoReferences: [], reviews: [], claimJudgements: [], reviewRatings: [], reviewClaimLinks: [], referenceGrades: [], commentFilteringLabels: [], annotationHistory: [] },
    updates: [],
    relinkedRatings: [],
    counts: Object.fromEntries(TABLES.map((t) => [t, { created: 0, updated: 0, unchanged: 0 }])) as Record<Table, TableCounts>,
    conflicts: [],
    separatedChanges: [],
    claimNormalizations: [],
    withoutFiles: [],
  };
  private readonly pullRequestIds = new Map<string, string>();
  /** Ids of the rows created. */
  private readonly newId: () => string;

  constructor(
    private readonly snapshot: Snapshot,
    private readonly options: PlanOptions,
  ) {
    this.newId = orderedIds(options.now);
  }

  /**
   * Decides one row: create when nothing is stored; otherwise compare, count, and report
   * conflicts (refused unless updating). `what` names the row in conflict messages.
   */
  private settle(table: Table, stored: Fields | null, incoming: Fields, at: SourceLocation, what: string): Outcome {
    const counts = this.plan.counts[table];
    if (stored === null) {
      counts.created++;
      return { action: "created", fields: incoming };
    }
    const { changes, conflicts } = decide(stored, incoming);
    if (conflicts.length > 0 && !this.options.update) {
      for (const c of conflicts) {
        this.plan.conflicts.push({ ...at, field: c.field, message: `${what}: the study has ${shown(c.stored)}, this file has ${shown(c.incoming)}; import with update to overwrite` });
      }
      return { action: "refused" };
    }
    if (Object.keys(changes).length === 0) {
      counts.unchanged++;
      return { action: "unchanged" };
    }
    counts.updated++;
    return { action: "updated", fields: { ...stored, ...changes } };
  }

  private update(table: Table, id: string, data: Record<string, unknown>): void {
    this.plan.updates.push({ table, id, data });
  }

  pullRequest(pr: PullRequestInput): void {
    const stored = this.snapshot.pullRequests.get(pr.externalId);
    const id = stored?.id ?? this.newId();
    this.pullRequestIds.set(pr.externalId, id);
    const fields = { repository: pr.repository, title: pr.title, description: pr.description, metadata: pr.metadata };
    const outcome = this.settle("pullRequests", stored ? { repository: stored.repository, title: stored.title, description: stored.description, metadata: stored.metadata } : null, fields, pr.at, `pull request ${pr.externalId}`);
    const columns = (f: Fields) => ({ repository: (f.repository as string) ?? "", title: (f.title as string) ?? "", description: (f.description as string) ?? "", metadata: f.metadata as JsonObject });
    if (outcome.action === "created") this.plan.creates.pullRequests.push({ id, studyId: this.options.studyId, externalId: pr.externalId, ...columns(outcome.fields) });
    else if (outcome.action === "updated") this.update("pullRequests", id, columns(outcome.fields));
  }

  private pullRequestId(externalId: string | null): string | null {
    if (externalId === null) return null;
    const id = this.pullRequestIds.get(externalId);
    if (id === undefined) throw new InvariantError(`pull request ${externalId} is not in the bundle`);
    return id;
  }

  /**
   * The stored change a CRScore change is: the one under its id or id@index with the same
   * index. A change stored under the plain id with another index is a different change: this
   * one is then imported as id@index (reported).
   */
  private storedChange(change: CodeChangeInput): { stored: CodeChange | undefined; externalId: string } {
    const plain = this.snapshot.codeChanges.get(change.externalId);
    const source = change.codeReviewer;
    if (!source) return { stored: plain, externalId: change.externalId };
    const indexOf = (c: CodeChange) => ((c.metadata ?? {}) as { index?: unknown }).index;
    const separated = separatedChangeId(source.id, source.index);
    const candidates = [change.externalId, source.id, separated].map((key) => this.snapshot.codeChanges.get(key)).filter((c) => c !== undefined);
    const same = candidates.find((c) => indexOf(c) === source.index) ?? (plain && indexOf(plain) === undefined ? plain : undefined);
    if (same) return { stored: same, externalId: same.externalId };
    if (plain === undefined) return { stored: undefined, externalId: change.externalId };
    this.plan.separatedChanges.push(
      `${formatImportError({ ...change.at, message: "" }).replace(/: $/, "")}: code change ${source.id} of the study has index ${String(indexOf(plain))}, this one index ${source.index}: imported as ${separated}`,
    );
    return { stored: undefined, externalId: separated };
  }

  codeChange(change: CodeChangeInput): void {
    const { stored, externalId } = this.storedChange(change);
    change = { ...change, externalId };
    const id = stored?.id ?? this.newId();
    const fields: Fields = {
      pullRequestId: this.pullRequestId(change.pullRequest),
      filePath: change.filePath,
      language: change.language,
      diff: change.diff,
      oldFile: change.oldFile,
      newFile: change.newFile,
      metadata: change.metadata,
      position: change.position,
    };
    const storedFields = stored && { pullRequestId: stored.pullRequestId, filePath: stored.filePath, language: stored.language, diff: stored.diff, oldFile: stored.oldFile, newFile: stored.newFile, metadata: stored.metadata, position: stored.position };
    const outcome = this.settle("codeChanges", storedFields ?? null, fields, change.at, `code change ${change.externalId}`);
    if ([change.oldFile, change.newFile, stored?.oldFile, stored?.newFile].every(isEmpty)) this.plan.withoutFiles.push(change.externalId);
    const columns = (f: Fields) => ({
      pullRequestId: (f.pullRequestId as string) ?? null,
      filePath: (f.filePath as string) ?? "",
      language: f.language as string,
      diff: f.diff as string,
      oldFile: (f.oldFile as string) ?? "",
      newFile: (f.newFile as string) ?? "",
      metadata: f.metadata as JsonObject,
      position: f.position as number,
    });
    if (outcome.action === "created") this.plan.creates.codeChanges.push({ id, studyId: this.options.studyId, externalId: change.externalId, ...columns(outcome.fields), updatedAt: this.options.now });
    else if (outcome.action === "updated") this.update("codeChanges", id, columns(outcome.fields));

    const storedReferences = new Map(change.pseudoReferences.map((r) => [r.externalId, this.storedReference(id, r)]));
    const referenceIds = new Map(change.pseudoReferences.map((r) => [r.externalId, storedReferences.get(r.externalId)?.id ?? this.newId()]));
    for (const reference of change.pseudoReferences) this.pseudoReference(reference, storedReferences.get(reference.externalId), id, referenceIds, `code change ${change.externalId}`);
    for (const review of change.reviews) this.review(review, id, referenceIds, `code change ${change.externalId}`);
  }

  /**
   * The stored pseudo-reference: by external id, else a claim of the same change whose text is
   * the same up to whitespace, list numbering and trailing punctuation (reported).
   */
  private storedReference(codeChangeId: string, reference: PseudoReferenceInput): PseudoReference | undefined {
    const exact = this.snapshot.pseudoReferences.get(childKey(codeChangeId, reference.externalId));
    if (exact || !reference.matchByText) return exact;
    const similar = this.snapshot.pseudoReferencesByText.get(childKey(codeChangeId, claimMatchKey(reference.text)));
    const normalizations = similar && claimNormalizations(similar.text, reference.text);
    if (!similar || !normalizations || (similar.kind === "SMELL") !== (reference.kind === "SMELL")) return undefined;
    const place = formatImportError({ ...reference.at, message: "" }).replace(/: $/, "");
    this.plan.claimNormalizations.push(`${place}: claim ${JSON.stringify(reference.text)} is the study's claim ${JSON.stringify(similar.text)} (${normalizations.join(", ")} ignored)`);
    return similar;
  }

  private pseudoReference(input: PseudoReferenceInput, stored: PseudoReference | undefined, codeChangeId: string, ids: Map<string, string>, parent: string): void {
    // A claim matched by normalized text keeps the stored text and key.
    const reference = stored && stored.externalId !== input.externalId ? { ...input, text: stored.text } : input;
    const id = ids.get(reference.externalId) as string;
    const addedById = reference.addedBy && annotatorIdOf(this.options.annotators, reference.addedBy);
    const owned: Fields = { text: reference.text, kind: reference.kind, source: reference.source, position: reference.position, addedById, correctsId: reference.corrects && ids.get(reference.corrects) };
    const fields = reference.restated ? { text: reference.text } : owned;
    const storedFields = stored && { text: stored.text, kind: stored.kind, source: stored.source, position: stored.position, addedById: stored.addedById, correctsId: stored.correctsId };
    const what = `${parent}, pseudo-reference ${reference.externalId}`;
    const outcome = this.settle("pseudoReferences", storedFields ?? null, fields, reference.at, what);
    if (outcome.action === "created") {
      this.plan.creates.pseudoReferences.push({ id, codeChangeId, externalId: reference.externalId, text: reference.text, kind: reference.kind, source: reference.source, position: reference.position, addedById: addedById ?? null, correctsId: (owned.correctsId as string) ?? null, updatedAt: this.options.now });
    } else if (outcome.action === "updated") {
      const f = outcome.fields;
      this.update("pseudoReferences", id, { text: f.text, kind: f.kind, source: f.source, position: f.position, addedById: f.addedById ?? null, correctsId: f.correctsId ?? null, version: (stored?.version ?? 0) + 1 });
    }
    if ((outcome.action === "created" || outcome.action === "updated") && (outcome.fields.addedById ?? null) !== null) {
      const value = (f: Fields) => ({ text: f.text as string, correctsId: (f.correctsId as string) ?? null });
      this.history("PSEUDO_REFERENCE", id, outcome.fields.addedById as string, stored ? { version: stored.version, value: value(storedFields as Fields) } : null, value(outcome.fields));
    }
    for (const judgement of reference.judgements) {
      this.annotation(JUDGEMENT, judgement, id, this.snapshot.claimJudgements, `${what}, judgement by ${judgement.annotator.name}`);
    }
  }

  private review(review: ReviewInput, codeChangeId: string, referenceIds: Map<string, string>, parent: string): void {
    const stored = this.snapshot.reviews.get(childKey(codeChangeId, review.externalId));
    const id = stored?.id ?? this.newId();
    // A missing text states nothing (a later file may give it); a text given clears the mark.
    const fields = { system: review.system, text: review.text, isReference: review.isReference, position: review.position, textMissing: review.text === "" ? null : false };
    const what = `${parent}, review ${review.externalId}`;
    const storedFields = stored ? { system: stored.system, text: stored.text, isReference: stored.isReference, position: stored.position, textMissing: stored.textMissing ? null : false } : null;
    const outcome = this.settle("reviews", storedFields, fields, review.at, what);
    if (outcome.action === "created") this.plan.creates.reviews.push({ id, codeChangeId, externalId: review.externalId, ...fields, textMissing: review.textMissing ?? false });
    else if (outcome.action === "updated") this.update("reviews", id, { ...outcome.fields, textMissing: outcome.fields.textMissing !== false });
    for (const rating of review.ratings) {
      const linked = { ...rating, addressIds: rating.addresses.map((e) => referenceIds.get(e) as string), partialIds: rating.partiallyAddresses.map((e) => referenceIds.get(e) as string) };
      this.annotation(RATING, linked, id, this.snapshot.reviewRatings, `${what}, rating by ${rating.annotator.name}`);
    }
    for (const grade of review.grades) this.annotation(GRADE, grade, id, this.snapshot.referenceGrades, `${what}, grade by ${grade.annotator.name}`);
    for (const filter of review.commentFilters) this.annotation(LABEL, filter, id, this.snapshot.commentFilteringLabels, `${what}, comment filter by ${filter.annotator.name}`);
  }

  /** One annotation of any kind: create or update it, its history row, and a rating's links. */
  private annotation<Input extends ClaimJudgementInput | ReviewRatingInput | ReferenceGradeInput | CommentFilterInput, Stored extends StoredAnnotation>(
    spec: AnnotationSpec<Input, Stored>,
    input: Input,
    targetId: string,
    storedRows: Map<string, Stored>,
    what: string,
  ): void {
    const annotatorId = annotatorIdOf(this.options.annotators, input.annotator);
    const stored = storedRows.get(childKey(annotatorId, targetId));
    const id = stored?.id ?? this.newId();
    const before = stored ? spec.stored(stored) : null;
    const outcome = this.settle(spec.table, before, spec.fields(input), input.at, what);
    if (outcome.action !== "created" && outcome.action !== "updated") return;
    const updatedAt = input.updatedAt ?? this.options.now;
    const imported = { importRunId: this.options.provenance.importRunId, importedFile: this.options.provenance.file };
    if (outcome.action === "created") {
      const row = { id, annotatorId, [spec.target]: targetId, ...spec.columns(outcome.fields), ...imported, createdAt: input.createdAt ?? this.options.now, updatedAt };
      (this.plan.creates[spec.table] as Record<string, unknown>[]).push(row);
    } else {
      this.update(spec.table, id, { ...spec.columns(outcome.fields), ...imported, version: (stored?.version ?? 0) + 1, updatedAt });
    }
    this.history(spec.history, id, annotatorId, stored && before ? { version: stored.version, value: spec.value(before) } : null, spec.value(outcome.fields));
    if (spec.linked) this.links(id, outcome.action, before, outcome.fields);
  }

  private links(ratingId: string, action: "created" | "updated", before: Fields | null, after: Fields): void {
    const links = ratingLinks(after);
    if (action === "updated") {
      const unchanged = before !== null && sameValue(ratingLinks(before), links);
      if (unchanged) return;
      this.plan.relinkedRatings.push(ratingId);
    }
    for (const link of links) this.plan.creates.reviewClaimLinks.push({ ratingId, ...link });
  }

  /** The history row of a change the import makes (created or updated: the old value tells which). */
  private history(kind: AnnotationKind, annotationId: string, accountId: string, old: { version: number; value: JsonObject } | null, value: JsonObject): void {
    this.plan.creates.annotationHistory.push({
      kind,
      annotationId,
      accountId,
      action: "IMPORT",
      importRunId: this.options.provenance.importRunId,
      baseVersion: old?.version ?? null,
      ...(old ? { oldValue: old.value } : {}),
      newValue: value,
    });
  }
}

type Creates = Plan["creates"];

/** The rows each table gained since `sizes` were taken. */
function createdSince(creates: Creates, sizes: Record<keyof Creates, number>): Creates {
  return Object.fromEntries(Object.entries(creates).map(([table, rows]) => [table, rows.slice(sizes[table as keyof Creates])])) as Creates;
}

const sizesOf = (creates: Creates) => Object.fromEntries(Object.entries(creates).map(([table, rows]) => [table, rows.length])) as Record<keyof Creates, number>;

/**
 * The plan of one bundle made `changesPerSlice` code changes at a time (the pull requests with
 * the first slice): yields the rows each slice creates, so that they can be written while the
 * next slice is planned, and returns the whole plan, the same as planBundle's. Pure.
 */
export function* planSlices(bundle: StudyBundle, snapshot: Snapshot, options: PlanOptions, changesPerSlice: number): Generator<Creates, Plan> {
  const planner = new Planner(snapshot, options);
  const creates = planner.plan.creates;
  let sizes = sizesOf(creates);
  bundle.pullRequests.forEach((pr) => planner.pullRequest(pr));
  for (let start = 0; start === 0 || start < bundle.codeChanges.length; start += changesPerSlice) {
    bundle.codeChanges.slice(start, start + changesPerSlice).forEach((change) => planner.codeChange(change));
    yield createdSince(creates, sizes);
    sizes = sizesOf(creates);
  }
  return planner.plan;
}

/** The plan of one bundle against the stored rows. Pure: nothing is written. */
export function planBundle(bundle: StudyBundle, snapshot: Snapshot, options: PlanOptions): Plan {
  const slices = planSlices(bundle, snapshot, options, Math.max(1, bundle.codeChanges.length));
  for (;;) {
    const next = slices.next();
    if (next.done) return next.value;
  }
}
