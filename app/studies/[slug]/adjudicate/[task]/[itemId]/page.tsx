import Link from "next/link";
import { notFound } from "next/navigation";
import { DataTable } from "@/components/dashboard/data-table";
import { content, text, type Tone } from "@/components/dashboard/table-data";
import { DiffView } from "@/components/diff-view";
import { ConsensusForm } from "@/components/adjudication/consensus-form";
import { NextDisagreement } from "@/components/adjudication/next-disagreement";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { adjudicationItem, nextOpenDisagreement, TASK_TYPES } from "@/lib/data/adjudication";
import { type RatingSplit, ratingSplit, splitText } from "@/lib/tasks/consensus";
import { decideConsensus } from "../../actions";

export const dynamic = "force-dynamic";

const stamp = (d: Date) => d.toISOString().slice(0, 16).replace("T", " ");

/** Where the annotators agree (green), disagree (amber) or tie (red). */
const splitTone = (split: RatingSplit): Tone | undefined => (split.unanimous ? "good" : split.counts.length < 2 ? undefined : split.tie ? "alert" : "warn");

function splitLabel(split: RatingSplit): string {
  if (split.counts.length === 0) return "no ratings";
  if (split.counts.length === 1) return split.unanimous ? "annotators agree" : "one rating";
  return split.tie ? `tie ${splitText(split).slice("tie ".length)}: no majority` : `disagree ${splitText(split)}`;
}

export default async function AdjudicateItemPage({ params, searchParams }: { params: Promise<{ slug: string; task: string; itemId: string }>; searchParams: Promise<{ question?: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug, task: taskParam, itemId } = await params;
  const task = TASK_TYPES.find((t) => t === taskParam);
  if (!task) notFound();
  const data = await orPageError(adjudicationItem(account, slug, task, itemId));
  const { change, item } = data;
  // The queue the lead came from: its question (else the task's first), least agreement first.
  const { question: questionKey } = await searchParams;
  const question = data.questions.find((q) => q.key === questionKey) ?? data.questions[0];
  const next = await orPageError(nextOpenDisagreement(account, slug, task, question.key, item.id));
  const splits = Object.fromEntries(data.questions.map((q) => [q.key, ratingSplit(data.annotations.flatMap((a) => (a.values[q.key] === null || a.values[q.key] === undefined ? [] : [a.values[q.key]!])))]));
  return (
    <div className="space-y-4">
      <div>
        <Link href={`/studies/${slug}/adjudicate?task=${task}&question=${encodeURIComponent(question.key)}`} prefetch={false} className="text-sm text-blue-700 hover:underline">
          ← adjudication queue
        </Link>
        <h1 className="text-2xl font-semibold">
          Adjudicate <span className="font-mono">{change.externalId}</span> · {item.label}
        </h1>
        <p className="text-sm text-slate-600">{data.taskName}</p>
        {task === "CLAIM_VERIFICATION" && (
          <p className="text-sm">
            The stage-2 set of this change (keep, replace or drop each claim) is decided on{" "}
            <Link href={`/studies/${slug}/consolidate/${change.id}`} className="text-blue-700 hover:underline">
              its consolidation page
            </Link>
            {change.consolidated ? " (consolidated)." : " (not consolidated yet)."}
          </p>
        )}
      </div>
      <section aria-label="Item" className="space-y-2 rounded border border-slate-200 bg-white p-3">
        <p className="whitespace-pre-wrap" data-testid="item-text">
          {item.text}
        </p>
        {data.reference !== null && (
          <p className="whitespace-pre-wrap text-sm text-slate-700">
            <span className="font-medium">Reference review: </span>
            {data.reference}
          </p>
        )}
        {data.pseudoReferences.length > 0 && (
          <details>
            <summary className="cursor-pointer text-sm font-medium">Pseudo-references ({data.pseudoReferences.length})</summary>
            <ul className="list-disc pl-6 text-sm">
              {data.pseudoReferences.map((p, i) => (
                <li key={i}>
                  <span className="text-slate-500">{p.kind.toLowerCase()}:</span> {p.text}
                </li>
              ))}
            </ul>
          </details>
        )}
        <details>
          <summary className="cursor-pointer text-sm font-medium">Code change</summary>
          <DiffView sources={[{ key: change.id, path: change.filePath, language: change.language, diff: change.diff, oldFile: change.oldFile, newFile: change.newFile, primary: true }]} mode="unified" />
        </details>
      </section>
      <section aria-label="Annotations">
        <h2 className="mb-2 text-lg font-medium">Annotations side by side</h2>
        <DataTable
          table={{
            label: "Annotations side by side",
            columns: [{ key: "annotator", label: "Annotator" }, ...data.questions.map((q) => ({ key: q.key, label: q.label })), { key: "note", label: "Note" }],
            rows: data.annotations.map((a) => ({
              key: a.annotatorId,
              data: { testid: "annotation-row" },
              cells: [
                text(a.annotator),
                ...data.questions.map((q) => text(String(a.values[q.key] ?? "–"), { tone: splitTone(splits[q.key]) })),
                content(
                  <span className="whitespace-pre-wrap">
                    {a.note}
                    {a.details.length > 0 && <span className="block text-xs text-slate-500">{a.details.join(" · ")}</span>}
                  </span>,
                ),
              ],
            })),
            foot: [
              {
                key: "split",
                data: { testid: "annotation-split" },
                cells: [text("Agreement"), ...data.questions.map((q) => text(splitLabel(splits[q.key]), { tone: splitTone(splits[q.key]), data: { testid: `split-${q.key}` } })), text("")],
              },
            ],
          }}
        />
      </section>
      <section aria-label="Consensus" className="space-y-3">
        <h2 className="text-lg font-medium">Consensus</h2>
        {data.questions.map((q) => {
          const c = data.consensus[q.key];
          return (
            <ConsensusForm
              key={q.key}
              input={{ slug, task, itemId: item.id, question: q.key }}
              label={q.label}
              scale={q.scale}
              split={splitLabel(splits[q.key])}
              tie={splits[q.key].tie}
              current={c ? { value: c.value, source: c.source, reason: c.source === "adjudicated" ? c.reason : "", version: c.source === "adjudicated" ? c.version : 0, gold: c.source === "adjudicated" && c.gold } : null}
              save={decideConsensus}
            />
          );
        })}
        <NextDisagreement
          next={next && { href: `/studies/${slug}/adjudicate/${task}/${next.itemId}?question=${encodeURIComponent(next.question.key)}`, label: `${next.label} (${next.question.label})` }}
          back={{ href: `/studies/${slug}/adjudicate?task=${task}&question=${encodeURIComponent(question.key)}`, label: "Back to the queue" }}
        />
      </section>
      <section aria-label="History">
        <h2 className="mb-2 text-lg font-medium">History</h2>
        {data.history.length === 0 ? (
          <p className="text-sm text-slate-600">No consensus decided yet.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {data.history.map((h, i) => (
              <li key={i} data-testid="history-entry">
                {stamp(h.at)} · {h.by ?? "removed account"} · {h.action.toLowerCase()} {h.question} = <span className="font-medium">{String(h.value)}</span>
                {h.gold ? " (gold)" : ""} · “{h.reason}” · from{" "}
                {Object.entries(h.fromValues)
                  .map(([name, v]) => `${name}: ${String(v)}`)
                  .join(", ") || "no ratings"}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
