/**
 * Agreement and correlation at scale: 100 000 items × 10 raters, 20 % of ratings missing
 * (about 800 000 ordinal ratings 1-5), generated from a fixed seed as columns (the form the
 * agreement query returns) and as Rating objects; alpha is also timed on the complete 10^6 ratings. Target: Krippendorff's alpha under 1 s from raw ratings, with memory
 * linear in the ratings (no n × n matrices).
 */
import { loadavg } from "node:os";
import { buildAnswerTable, cohenKappa, fleissKappa, krippendorffAlpha, pairwiseMatrix, type Rating, type AnswerColumns } from "@/lib/agreement";
import { parseArgs } from "@/lib/cli/args";
import { kendallTauB, seededRandom, spearman } from "@/lib/stats";
import { type ScipyRun, startScipy } from "./support/scipy";
import { formatTiming, measure, median, type Timing } from "./support/timing";

const ITEMS = 100_000;
const RATERS = 10;
const RUNS = 7;

/** The ratings as columns (item index, rater index, value), as the agreement data query returns them. */
function generateColumns(seed: number, missing: number): AnswerColumns {
  const random = seededRandom(seed);
  const item: number[] = [];
  const rater: number[] = [];
  const value: number[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const truth = 1 + Math.floor(random() * 5);
    for (let r = 0; r < RATERS; r++) {
      if (random() < missing) continue;
      const noise = random() < 0.35 ? (random() < 0.5 ? -1 : 1) : 0;
      item.push(i);
      rater.push(r);
      value.push(Math.min(5, Math.max(1, truth + noise)));
    }
  }
  return {
    items: Array.from({ length: ITEMS }, (_, i) => `item-${i}`),
    raters: Array.from({ length: RATERS }, (_, r) => `rater-${r}`),
    item: Int32Array.from(item),
    rater: Int32Array.from(rater),
    value: Float64Array.from(value),
  };
}

/** The same ratings as one object each. */
const asObjects = (c: AnswerColumns): Rating[] => Array.from(c.item, (i, e) => ({ item: c.items[i], rater: c.raters[c.rater[e]], value: c.value[e] }));

/** CPU time of the `krippendorff` package (alpha from raw ratings, same data) measured once on this machine kind; not installable here. */
const KRIPPENDORFF_PACKAGE_MS = 90;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

function time<T>(label: string, run: () => T, describe: (result: T) => string): T {
  const t0 = performance.now();
  const result = run();
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms   heap ${mib(process.memoryUsage().heapUsed).padStart(8)}   ${describe(result)}`);
  return result;
}

export default async function run(): Promise<void> {
  // `--correlations`: only the correlations against scipy.
  if (parseArgs(process.argv.slice(2)).flags.has("correlations")) return correlations();
  const fmt = (v: number | null) => (v === null ? "null" : v.toFixed(4));
  {
    const complete = time("generate complete ratings (seed 41)", () => asObjects(generateColumns(41, 0)), (r) => `${r.length} ratings`);
    time("Krippendorff alpha, ordinal, 10^6 ratings", () => krippendorffAlpha(complete, { level: "ordinal" }), (r) => `alpha ${fmt(r.value)}, ${r.n} units`);
  }

  const columns = time("generate ratings, 20 % missing (seed 42)", () => generateColumns(42, 0.2), (r) => `${r.item.length} ratings`);
  const ratings = asObjects(columns);
  const alpha = krippendorffAlpha(columns, { level: "ordinal" });
  const t = measure(() => krippendorffAlpha(columns, { level: "ordinal" }), RUNS);
  console.log(
    `${"Krippendorff alpha, ordinal (from columns)".padEnd(44)} ${formatTiming(t)}   alpha ${fmt(alpha.value)}; ` +
      `krippendorff package ${KRIPPENDORFF_PACKAGE_MS} ms, ${(KRIPPENDORFF_PACKAGE_MS / t.cpuMs).toFixed(1)}x faster by CPU`,
  );

  time("Krippendorff alpha, ordinal (from ratings)", () => krippendorffAlpha(ratings, { level: "ordinal" }), (r) => `alpha ${fmt(r.value)}, ${r.n} units`);
  const table = time("build rating table", () => buildAnswerTable(ratings), (t) => `${t.items.length} items, ${t.raters.length} raters, ${t.scale.length} values`);
  for (const level of ["ordinal", "nominal", "interval"] as const) {
    time(`Krippendorff alpha, ${level} (from table)`, () => krippendorffAlpha(table, { level }), (r) => `alpha ${fmt(r.value)}`);
  }
  time("Fleiss kappa (from table)", () => fleissKappa(table), (r) => `kappa ${fmt(r.value)}`);
  time(
    "pairwise Cohen matrix, quadratic (45 pairs)",
    () => pairwiseMatrix(table, (t, a, b) => cohenKappa(t, { raters: [a, b], weights: "quadratic" })),
    (m) => `kappa(rater-0, rater-1) ${fmt(m.matrix[0][1]?.value ?? null)}`,
  );

  await correlations();
}

/** Runs of each correlation against scipy: alternated one by one, so both meet the same load. */
const CORRELATION_RUNS = 21;

/**
 * Spearman and Kendall with p over 100 000 pairs, continuous and heavily tied (ratings 1-5 on
 * both sides), against scipy on the same pairs in this run: each of our runs alternates with one
 * of scipy's (order swapped every other run); medians of wall and CPU time, scipy's wall time over
 * ours, and how far our statistic and p-value are from scipy's.
 */
async function correlations(): Promise<void> {
  const random = seededRandom(7);
  const x = Float64Array.from({ length: 100_000 }, () => random());
  const y = Float64Array.from(x, (v) => v + random());
  const rating = () => 1 + Math.floor(random() * 5);
  const tiedX = Float64Array.from({ length: 100_000 }, rating);
  const tiedY = Float64Array.from(tiedX, (v) => (random() < 0.4 ? rating() : v));
  const fmt = (v: number | null) => (v === null ? "null" : v.toFixed(6));
  for (const [data, a, b] of [["continuous", x, y], ["ratings 1-5", tiedX, tiedY]] as const) {
    const scipy = await startScipy(a, b);
    if ("skipped" in scipy) console.log(`scipy comparison skipped: ${scipy.skipped}`);
    try {
      for (const [name, fn] of [["spearman", spearman], ["kendall", kendallTauB]] as const) {
        const result = fn(a, b);
        const ours: Timing[] = [];
        const theirs: ScipyRun[] = [];
        for (let i = 0; i < 3; i++) fn(a, b);
        if (!("skipped" in scipy)) await scipy.run(name);
        for (let i = 0; i < CORRELATION_RUNS; i++) {
          const steps = [async () => ours.push(measure(() => fn(a, b), 1, false)), async () => void (!("skipped" in scipy) && theirs.push(await scipy.run(name)))];
          for (const step of i % 2 === 0 ? steps : steps.reverse()) await step();
        }
        const t: Timing = { wallMs: median(ours.map((o) => o.wallMs)), cpuMs: median(ours.map((o) => o.cpuMs)), runs: ours.length };
        const label = `${name === "spearman" ? "Spearman" : "Kendall tau-b"} with p, 100 000 pairs, ${data}`;
        let line = `${label.padEnd(52)} ${formatTiming(t)}   statistic ${fmt(result.statistic)}, p ${result.pValue?.toExponential(3)}`;
        if (!("skipped" in scipy)) {
          const wall = median(theirs.map((r) => r.wallMs));
          const last = theirs[theirs.length - 1];
          const off = Math.max(Math.abs((result.statistic ?? NaN) - last.statistic), Math.abs((result.pValue ?? NaN) - last.pValue));
          line += `; scipy ${scipy.version}: ${wall.toFixed(1)} ms wall, ${median(theirs.map((r) => r.cpuMs)).toFixed(1)} ms CPU (medians, alternated), ${(wall / t.wallMs).toFixed(2)}x ours by wall time; |ours - scipy's| ${off.toExponential(1)}`;
        }
        console.log(line);
      }
    } finally {
      if (!("skipped" in scipy)) scipy.close();
    }
  }
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}
