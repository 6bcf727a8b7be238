/**
 * METEOR as nltk 3.8 computes it (`nltk/nltk` nltk/translate/meteor_score.py),
 * `meteor_score(references, hypothesis)` with alpha 0.9, beta 3, gamma 0.5 on pre-tokenised input,
 * aligning by exact match, then Porter-stem match — but WITHOUT the WordNet synonym stage.
 *
 * No maintained npm package ships WordNet for offline use, so this is "METEOR (exact+stem)". It
 * equals nltk whenever the synonym stage finds nothing: every `meteor_nltk` vector but the last
 * ("the automobile is quick" vs "the car is fast": 0.6389 with WordNet, 0.25 here), which is tested
 * against its `meteor_without_wordnet` value.
 */
import { porterStem } from "./porter";

const ALPHA = 0.9;
const BETA = 3;
const GAMMA = 0.5;

/** (original index, word) pairs, as nltk's `enumerate` lists. */
type Enumerated = [index: number, word: string][];
/** (hypothesis index, reference index). */
type Match = [hyp: number, ref: number];

/**
 * `_match_enums`: for each hypothesis word from the last, the last equal reference word is
 * matched and both are removed (greedy; crossings are not minimised). Mutates both lists.
 */
function matchEnums(hyp: Enumerated, ref: Enumerated): Match[] {
  const matches: Match[] = [];
  for (let i = hyp.length - 1; i >= 0; i--) {
    for (let j = ref.length - 1; j >= 0; j--) {
      if (hyp[i][1] === ref[j][1]) {
        matches.push([hyp[i][0], ref[j][0]]);
        hyp.splice(i, 1);
        ref.splice(j, 1);
        break;
      }
    }
  }
  return matches;
}

/** `_count_chunks` over matches sorted by hypothesis index: 1 + the number of breaks in adjacency. */
function countChunks(matches: readonly Match[]): number {
  let chunks = 1;
  for (let i = 0; i < matches.length - 1; i++) {
    const adjacent = matches[i + 1][0] === matches[i][0] + 1 && matches[i + 1][1] === matches[i][1] + 1;
    if (!adjacent) chunks++;
  }
  return chunks;
}

/** `single_meteor_score(reference, hypothesis)` without WordNet; 0 when nothing matches or a side is empty. */
export function singleMeteor(reference: readonly string[], hypothesis: readonly string[]): number {
  const hyp: Enumerated = hypothesis.map((w, i) => [i, w.toLowerCase()]);
  const ref: Enumerated = reference.map((w, i) => [i, w.toLowerCase()]);
  const exact = matchEnums(hyp, ref);
  // The stem stage sees only the leftovers, stemmed on both sides.
  const stemmed = matchEnums(
    hyp.map(([i, w]) => [i, porterStem(w)]),
    ref.map(([i, w]) => [i, porterStem(w)]),
  );
  const matches = [...exact, ...stemmed].sort((a, b) => a[0] - b[0]);
  const m = matches.length;
  if (m === 0) return 0;
  const precision = m / hypothesis.length;
  const recall = m / reference.length;
  const fmean = (precision * recall) / (ALPHA * precision + (1 - ALPHA) * recall);
  const penalty = GAMMA * (countChunks(matches) / m) ** BETA;
  return (1 - penalty) * fmean;
}

/** `meteor_score(references, hypothesis)`: the best single-reference score. Tokens are lowercased here. */
export function meteor(references: readonly (readonly string[])[], hypothesis: readonly string[]): number {
  if (references.length === 0) throw new RangeError("METEOR needs at least one reference");
  return Math.max(...references.map((reference) => singleMeteor(reference, hypothesis)));
}
