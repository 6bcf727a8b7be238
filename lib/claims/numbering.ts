/**
 * The name a pseudo-reference goes by wherever a lead or annotator sees it (stage 1, consolidation,
 * adjudication, the agreement reports), so that one claim has one number. Within one code change,
 * in stored order (position, then id): the generated claims (claims and implications) are
 * "claim 1", "claim 2", … as stage 1 lists them, and the claims annotators added continue the
 * count, as consolidation lists them; a correction is named after the claim it corrects, and
 * smells are counted apart.
 */
export interface NumberedReference {
  id: string;
  kind: string;
  correctsId: string | null;
}

/** The claim numbers of one code change's pseudo-references (given in stored order); corrections and smells have none. */
export function claimNumbers(references: readonly NumberedReference[]): Map<string, number> {
  const generated = references.filter((r) => r.kind === "CLAIM" || r.kind === "IMPLICATION");
  const added = references.filter((r) => r.kind === "ANNOTATOR_ADDED" && r.correctsId === null);
  return new Map([...generated, ...added].map((r, i) => [r.id, i + 1]));
}

/** Each pseudo-reference's name, in the order given (one code change's, in stored order). */
export function referenceLabels(references: readonly NumberedReference[]): string[] {
  const number = claimNumbers(references);
  let smells = 0;
  return references.map((r) => {
    if (r.kind === "SMELL") return `smell ${++smells}`;
    if (number.has(r.id)) return `claim ${number.get(r.id)}`;
    const corrected = r.correctsId === null ? undefined : number.get(r.correctsId);
    return corrected === undefined ? "correction" : `correction of claim ${corrected}`;
  });
}
