/**
 * The dataset card of the `hf` export (docs/jsonl-format.md): the README.md of a folder laid out
 * as a Hugging Face dataset (the Parquet tables under data/, one config per task), with YAML
 * metadata the Hub reads (licence, pretty name, configs) and what a reader of the data needs:
 * the tasks and their codebook (each question's answers), counts, the agreement figures with their
 * bootstrap CIs, and how the items were chosen and assigned.
 */
import type { AgreementReport } from "@/lib/analysis/agreement-report";
import type { ParquetTable } from "./parquet";

export interface DatasetCardInput {
  study: { slug: string; name: string; description: string; annotatorsPerItem: number; reliabilitySetSize: number; assignmentSeed: number; goldPerQueue: number };
  /** The task labels by task, in the study's order. */
  tasks: { task: string; label: string }[];
  tables: Pick<ParquetTable, "task" | "file" | "rows">[];
  agreement: AgreementReport;
  /** An SPDX identifier, or "other". */
  license: string;
  includeGold: boolean;
  exportedAt: Date;
}

/** A YAML scalar in double quotes (JSON's string escapes are YAML's). */
const quoted = (text: string) => JSON.stringify(text);
const figure = (value: number | null) => (value === null ? "undefined" : value.toFixed(3));

export function datasetCard(input: DatasetCardInput): string {
  const { study, agreement } = input;
  const configs = input.tables.flatMap((t) => [`- config_name: ${t.file.replace(/\.parquet$/, "")}`, `  data_files: data/${t.file}`]);
  const yaml = ["---", `license: ${input.license}`, `pretty_name: ${quoted(study.name)}`, "language:", "- en", "tags:", "- code-review", "- human-annotation", "configs:", ...configs, "---"];
  const label = (task: string) => input.tasks.find((t) => t.task === task)?.label ?? task;
  const questions = agreement.tasks.flatMap((t) => t.questions);
  const { bootstrap } = agreement.settings;
  const body = [
    `# ${study.name}`,
    "",
    ...(study.description ? [study.description, ""] : []),
    `Human judgements of code review quality from the CR Judge study \`${study.slug}\`, exported on ${input.exportedAt.toISOString().slice(0, 10)}. One row per (item, annotator, question), with the item's text and its consensus value (the lead's adjudicated value, else the annotators' unanimous one; empty when there is none).`,
    "",
    "## Tasks and files",
    "",
    "| task | file | rows |",
    "|---|---|---|",
    ...input.tables.map((t) => `| ${label(t.task)} (\`${t.task}\`) | \`data/${t.file}\` | ${t.rows} |`),
    "",
    "## Codebook",
    "",
    ...questions.map((q) => `- **${q.label}** (\`${q.question}\`, ${label(q.task)}, ${q.level}): ${q.scale.map((v) => `\`${String(v)}\``).join(", ")}`),
    "",
    "## Counts",
    "",
    "| task | question | items | ratings | raters | items with 2+ ratings |",
    "|---|---|---|---|---|---|",
    ...questions.map((q) => `| ${label(q.task)} | ${q.question} | ${q.counts.items} | ${q.counts.ratings} | ${q.counts.raters} | ${q.counts.itemsWithTwoOrMoreRatings} |`),
    "",
    "## Agreement",
    "",
    `${bootstrap.method}; ${agreement.settings.counted}.`,
    "",
    "| task | question | coefficient | value | 95% CI | n |",
    "|---|---|---|---|---|---|",
    ...questions.flatMap((q) =>
      q.coefficients.map((c) => `| ${label(q.task)} | ${q.question} | ${c.method} | ${figure(c.value)}${c.reason ? ` (${c.reason})` : ""} | ${c.ci && c.ci.low !== null && c.ci.high !== null ? `[${figure(c.ci.low)}, ${figure(c.ci.high)}]` : `none${c.ci?.reason ? ` (${c.ci.reason})` : ""}`} | ${c.n} |`),
    ),
    "",
    "## How the items were chosen",
    "",
    `Every item of the study${input.includeGold ? ", gold items (known answers) included" : "; gold items (known answers used as attention checks) left out"}. Each item was assigned to ${study.annotatorsPerItem} annotator(s), in a per-annotator order seeded with ${study.assignmentSeed}${study.reliabilitySetSize > 0 ? `; ${study.reliabilitySetSize} items were labelled by every annotator (the reliability set)` : ""}${study.goldPerQueue > 0 ? `; ${study.goldPerQueue} gold item(s) were mixed into each queue` : ""}.`,
    "",
    "## Licence",
    "",
    input.license === "other" ? "Not stated by the study's lead: ask them before redistributing." : `\`${input.license}\`.`,
    "",
    "## Loading",
    "",
    "```python",
    "from datasets import load_dataset",
    `ds = load_dataset("parquet", data_files={"train": "data/${input.tables[0]?.file ?? "TASK.parquet"}"})`,
    "import pandas as pd",
    `df = pd.read_parquet("data/${input.tables[0]?.file ?? "TASK.parquet"}")`,
    "```",
    "",
  ];
  return [...yaml, "", ...body].join("\n");
}
