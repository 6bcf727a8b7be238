/**
 * CRScore Table 4: how well the similarity threshold finds the pseudo-references a review
 * addresses. Each (rated review, pseudo-reference of its change) pair is predicted "addressed"
 * when some sentence of the review has similarity ≥ τ with the pseudo-reference (the matching of
 * §3.3), and is addressed in truth when the annotator linked the claim in stage 2; precision,
 * recall and F1 over all pairs, at the Table 18 grid, the τ CRScore runs use (the paper's
 * τ_best row: 0.7314 for its model, else calibrated by its procedure), τ_GT and the τ of 0.01 to
 * 0.99 with the highest F1 here.
 */
import type { Embedder } from "@/lib/embeddings";
import { splitReviewSentences } from "@/lib/metrics";
import { TABLE_18_TAUS } from "./threshold-sweep";

export interface LinkPair {
  /** Best similarity of any review sentence with the pseudo-reference; null when undefined. */
  best: number | null;
  linked: boolean;
}

export interface Table4Row {
  tau: number;
  /** "grid" (Table 18's), "tau" (CRScore's τ), "gt" (τ_GT) or "best" (highest F1 here). */
  kind: "grid" | "tau" | "gt" | "best";
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export function linkScores(pairs: readonly LinkPair[], tau: number, kind: Table4Row["kind"]): Table4Row {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const p of pairs) {
    const predicted = p.best !== null && p.best >= tau;
    if (predicted && p.linked) tp++;
    else if (predicted) fp++;
    else if (p.linked) fn++;
  }
  const precision = tp + fp === 0 ? null : tp / (tp + fp);
  const recall = tp + fn === 0 ? null : tp / (tp + fn);
  const f1 = precision === null || recall === null || precision + recall === 0 ? null : (2 * precision * recall) / (precision + recall);
  return { tau, kind, truePositives: tp, falsePositives: fp, falseNegatives: fn, precision, recall, f1 };
}

/** The rows of Table 4 for these pairs: the grid, the named thresholds and the best F1, by τ. */
export function table4Rows(pairs: readonly LinkPair[], named: readonly { tau: number; kind: "tau" | "gt" }[]): Table4Row[] {
  let best: Table4Row | null = null;
  for (let i = 1; i <= 99; i++) {
    const row = linkScores(pairs, i / 100, "best");
    if (row.f1 !== null && (best === null || row.f1 > (best.f1 as number))) best = row;
  }
  const rows = [...TABLE_18_TAUS.map((t) => linkScores(pairs, t, "grid")), ...named.map((n) => linkScores(pairs, n.tau, n.kind)), ...(best ? [best] : [])];
  return rows.sort((a, b) => a.tau - b.tau);
}

/** A stage-2 rating as Table 4 reads it (lib/data/claim-links.ts): the claims it links, its review's text and the claims of the review's change. */
export interface LinkedRating {
  links: readonly { pseudoReferenceId: string }[];
  review: { text: string; codeChange: { pseudoReferences: readonly { id: string; text: string }[] } };
}

/**
 * The pairs of a study: every stage-2 rating of a candidate review (the human reference left
 * out) with every claim, implication or added claim of its change, embedded with `embedder`.
 */
export async function claimLinkPairs(ratings: readonly LinkedRating[], embedder: Embedder): Promise<{ pairs: LinkPair[]; ratings: number }> {
  const rated = ratings.filter((r) => r.review.codeChange.pseudoReferences.length > 0);
  const sentences = rated.map((r) => splitReviewSentences(r.review.text));
  const embedded = await embedder.embed([...new Set([...sentences.flat(), ...rated.flatMap((r) => r.review.codeChange.pseudoReferences.map((p) => p.text))])]);
  const pairs: LinkPair[] = [];
  rated.forEach((rating, i) => {
    const linked = new Set(rating.links.map((l) => l.pseudoReferenceId));
    for (const ref of rating.review.codeChange.pseudoReferences) {
      let best: number | null = null;
      for (const s of sentences[i]) {
        const sim = embedded.similarity(s, ref.text);
        if (sim !== null && (best === null || sim > best)) best = sim;
      }
      pairs.push({ best, linked: linked.has(ref.id) });
    }
  });
  return { pairs, ratings: rated.length };
}
