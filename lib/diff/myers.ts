/**
 * Line diff by Myers' O(ND) algorithm in linear space (E. W. Myers, "An O(ND) Difference
 * Algorithm and Its Variations", Algorithmica 1986, section 4b: divide and conquer on the
 * middle snake), after stripping the common prefix and suffix of every sub-problem.
 */

/** A maximal run of changed lines: old[oldStart, oldEnd) is replaced by new[newStart, newEnd). */
export interface ChangeBlock {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** A run of `length` equal lines starting at old[oldStart] and new[newStart]. */
interface EqualRun {
  oldStart: number;
  newStart: number;
  length: number;
}

/** Maps every distinct line to a small integer so that comparisons are integer compares. */
function intern(a: readonly string[], b: readonly string[]): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const encode = (lines: readonly string[]) =>
    Int32Array.from(lines, (line) => {
      let id = ids.get(line);
      if (id === undefined) ids.set(line, (id = ids.size));
      return id;
    });
  return [encode(a), encode(b)];
}

/**
 * The point where a shortest edit script of a[aLo, aHi) -> b[bLo, bHi) crosses its middle
 * snake, as offsets from (aLo, bLo); null only when the ranges share no line at all.
 * The forward and reverse searches of Myers' figure 10, advanced alternately.
 */
function middleSnake(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number): [number, number] | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD + 1;
  const size = 2 * maxD + 3;
  const forward = new Int32Array(size).fill(-1);
  const reverse = new Int32Array(size).fill(-1);
  forward[offset + 1] = 0;
  reverse[offset + 1] = 0;
  const delta = n - m;
  const oddDelta = (delta & 1) !== 0;
  // Diagonals already known to run off the grid are skipped on later rounds.
  let fStart = 0, fEnd = 0, rStart = 0, rEnd = 0;
  for (let d = 0; d < maxD; d++) {
    for (let k = -d + fStart; k <= d - fEnd; k += 2) {
      const i = offset + k;
      let x = k === -d || (k !== d && forward[i - 1] < forward[i + 1]) ? forward[i + 1] : forward[i - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      forward[i] = x;
      if (x > n) fEnd += 2;
      else if (y > m) fStart += 2;
      else if (oddDelta) {
        const j = offset + delta - k;
        if (j >= 0 && j < size && reverse[j] !== -1 && x >= n - reverse[j]) return [x, y];
      }
    }
    for (let k = -d + rStart; k <= d - rEnd; k += 2) {
      const i = offset + k;
      let x = k === -d || (k !== d && reverse[i - 1] < reverse[i + 1]) ? reverse[i + 1] : reverse[i - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[aHi - x - 1] === b[bHi - y - 1]) {
        x++;
        y++;
      }
      reverse[i] = x;
      if (x > n) rEnd += 2;
      else if (y > m) rStart += 2;
      else if (!oddDelta) {
        const j = offset + delta - k;
        if (j >= 0 && j < size && forward[j] !== -1) {
          const fx = forward[j];
          if (fx >= n - x) return [fx, fx - (j - offset)];
        }
      }
    }
  }
  return null;
}

function collectEqualRuns(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, out: EqualRun[]): void {
  let prefix = 0;
  while (aLo + prefix < aHi && bLo + prefix < bHi && a[aLo + prefix] === b[bLo + prefix]) prefix++;
  if (prefix > 0) out.push({ oldStart: aLo, newStart: bLo, length: prefix });
  aLo += prefix;
  bLo += prefix;
  let suffix = 0;
  while (aHi - suffix > aLo && bHi - suffix > bLo && a[aHi - suffix - 1] === b[bHi - suffix - 1]) suffix++;
  aHi -= suffix;
  bHi -= suffix;
  if (aLo < aHi && bLo < bHi) {
    const split = middleSnake(a, aLo, aHi, b, bLo, bHi);
    if (split) {
      const [x, y] = split;
      collectEqualRuns(a, aLo, aLo + x, b, bLo, bLo + y, out);
      collectEqualRuns(a, aLo + x, aHi, b, bLo + y, bHi, out);
    }
  }
  if (suffix > 0) out.push({ oldStart: aHi, newStart: bHi, length: suffix });
}

/** The changed regions between two line arrays, in order, separated by at least one equal line. */
export function diffLines(oldLines: readonly string[], newLines: readonly string[]): ChangeBlock[] {
  const [a, b] = intern(oldLines, newLines);
  const runs: EqualRun[] = [];
  collectEqualRuns(a, 0, a.length, b, 0, b.length, runs);
  runs.push({ oldStart: a.length, newStart: b.length, length: 0 });
  const blocks: ChangeBlock[] = [];
  let oldPos = 0;
  let newPos = 0;
  for (const run of runs) {
    if (run.oldStart > oldPos || run.newStart > newPos) {
      blocks.push({ oldStart: oldPos, oldEnd: run.oldStart, newStart: newPos, newEnd: run.newStart });
    }
    oldPos = run.oldStart + run.length;
    newPos = run.newStart + run.length;
  }
  return blocks;
}
