/**
 * Lenient imports (`--skip-invalid-rows`): the faulty rows of a file are left out and
 * the rest imported. What a row states goes with it: a row whose errors concern only the
 * annotator's cells (scores, codes, links) loses its annotations; a row with another error
 * loses its claim and review too; an error on a change's own cells (id, index, diff, files) or
 * on a JSONL line leaves out the whole code change. Ratings linking to a claim left out are
 * left out as well, and listed.
 */
import type { CodeChangeInput, StudyBundle } from "./bundle";
import type { ImportError, SourceLocation } from "./errors";

/** Cells holding an annotator's answers (CRScore sheets, GradedReviews grades). */
const ANNOTATION_FIELD = /^(correctness|based on diff|error type|necessary\?|claims addressed|partial|con \(p\)|comp \(r\)|rel \(f\)|grade.*)$/i;
/** Cells of a code change's first row. */
const CHANGE_FIELD = /^(id|index|diff|old_file|new_file|ID|relatedCode)$/;

type Fault = "annotations" | "row" | "change";
const RANK: Record<Fault, number> = { annotations: 0, row: 1, change: 2 };

const placeKey = (at: SourceLocation) => `${at.file}\u0000${at.row ?? `line ${at.line}`}`;

/** Errors that cannot be skipped: whole-file problems (no row or line, or the header row). */
export function unskippable(error: ImportError): boolean {
  return (error.row === undefined && error.line === undefined) || error.row === 1;
}

function faultOf(error: ImportError): Fault {
  if (error.row === undefined || error.field === undefined || CHANGE_FIELD.test(error.field)) return "change";
  return ANNOTATION_FIELD.test(error.field) ? "annotations" : "row";
}

function faultsByPlace(errors: readonly ImportError[]): Map<string, Fault> {
  const faults = new Map<string, Fault>();
  for (const error of errors) {
    const key = placeKey(error);
    const fault = faultOf(error);
    const known = faults.get(key);
    if (!known || RANK[fault] > RANK[known]) faults.set(key, fault);
  }
  return faults;
}

/** The change without what its faulty rows state; ratings linking to claims left out are reported in `cascaded`. */
function keptChange(change: CodeChangeInput, fault: (at: SourceLocation) => Fault | undefined, cascaded: ImportError[]): CodeChangeInput {
  const itemKept = (at: SourceLocation) => {
    const f = fault(at);
    return f === undefined || f === "annotations";
  };
  const annotationKept = (at: SourceLocation) => fault(at) === undefined;
  const references = change.pseudoReferences.filter((r) => itemKept(r.at));
  const referenceIds = new Set(references.map((r) => r.externalId));
  const droppedReferences = change.pseudoReferences.filter((r) => !referenceIds.has(r.externalId));
  return {
    ...change,
    pseudoReferences: references.map((r) => ({ ...r, corrects: r.corrects !== null && referenceIds.has(r.corrects) ? r.corrects : null, judgements: r.judgements.filter((j) => annotationKept(j.at)) })),
    reviews: change.reviews
      .filter((r) => itemKept(r.at))
      .map((r) => ({
        ...r,
        ratings: r.ratings.filter((rating) => {
          if (!annotationKept(rating.at)) return false;
          const missing = [...rating.addresses, ...rating.partiallyAddresses].filter((id) => !referenceIds.has(id));
          if (missing.length === 0) return true;
          const rows = droppedReferences.filter((d) => missing.includes(d.externalId)).map((d) => d.at.row ?? d.at.line);
          cascaded.push({ ...rating.at, field: "claims addressed", message: `links to a claim on a row left out (row ${rows.join(", ")}); the rating is left out` });
          return false;
        }),
        grades: r.grades.filter((g) => annotationKept(g.at)),
        commentFilters: r.commentFilters.filter((c) => annotationKept(c.at)),
      })),
  };
}

/**
 * The bundle without the faulty rows `errors` name, and the ratings left out because they
 * link to a claim that was (pure; the bundle is not modified).
 */
export function leaveOutFaultyRows(bundle: StudyBundle, errors: readonly ImportError[]): { bundle: StudyBundle; cascaded: ImportError[] } {
  const faults = faultsByPlace(errors);
  const fault = (at: SourceLocation) => faults.get(placeKey(at));
  const cascaded: ImportError[] = [];
  const codeChanges = bundle.codeChanges.filter((c) => fault(c.at) !== "change").map((c) => keptChange(c, fault, cascaded));
  return { bundle: { ...bundle, codeChanges }, cascaded };
}
