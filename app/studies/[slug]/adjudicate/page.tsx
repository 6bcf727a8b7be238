import Link from "next/link";
import { DataTable } from "@/components/dashboard/data-table";
import { content, text } from "@/components/dashboard/table-data";
import { StudyPageHeader } from "@/components/study-page-header";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { orPageError } from "@/lib/errors/page";
import { adjudicationQueue, TASK_TYPES } from "@/lib/data/adjudication";
import type { TaskType } from "@/lib/generated/prisma/client";
import { TASKS } from "@/lib/tasks";
import { splitText } from "@/lib/tasks/consensus";

export const dynamic = "force-dynamic";

const percent = (v: number | null) => (v === null ? "–" : `${Math.round(v * 100)}%`);
const ratingsText = (ratings: { rater: string; value: unknown }[]) => ratings.map((r) => `${r.rater}: ${r.value}`).join(" · ");

export default async function AdjudicatePage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<{ task?: string; question?: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const query = await searchParams;
  const task = TASK_TYPES.find((t) => t === query.task);
  const queue = await orPageError(adjudicationQueue(account, slug, task, query.question));
  const href = (t: TaskType, q?: string) => `/studies/${slug}/adjudicate?task=${t}${q ? `&question=${encodeURIComponent(q)}` : ""}`;
  const itemHref = (id: string) => `/studies/${slug}/adjudicate/${queue.task}/${id}?question=${encodeURIComponent(queue.question.key)}`;
  return (
    <div className="space-y-4">
      <StudyPageHeader study={queue.study} title="Adjudication">
        <p className="text-sm text-slate-600">
          Items the annotators rated differently, least agreement first. Open one to compare the annotations and decide the consensus value; a tie (no value given by more annotators than another) has no default. After
          saving, the key n moves to the next open disagreement.
        </p>
      </StudyPageHeader>
      <nav aria-label="Tasks" className="flex gap-3 text-sm">
        {queue.study.tasks.map((t) => (
          <Link key={t} href={href(t)} className={t === queue.task ? "font-semibold" : "text-blue-700 hover:underline"} aria-current={t === queue.task ? "page" : undefined}>
            {TASKS[t].name}
          </Link>
        ))}
      </nav>
      {queue.questions.length > 1 && (
        <nav aria-label="Questions" className="flex gap-3 text-sm">
          {queue.questions.map((q) => (
            <Link key={q.key} href={href(queue.task, q.key)} className={q.key === queue.question.key ? "font-semibold" : "text-blue-700 hover:underline"}>
              {q.label}
            </Link>
          ))}
        </nav>
      )}
      <p className="text-sm" data-testid="adjudication-counts">
        {queue.open.length} open · {queue.adjudicated.length} adjudicated · {queue.unanimous} unanimous
      </p>
      <section aria-label="Open disagreements">
        <h2 className="mb-2 text-lg font-medium">Open: {queue.question.label}</h2>
        <DataTable
          table={{
            label: `Open disagreements: ${queue.question.label}`,
            empty: "No open disagreements.",
            columns: [
              { key: "item", label: "Item" },
              { key: "agreement", label: "Agreement", numeric: true },
              { key: "range", label: "Range", numeric: true },
              { key: "split", label: "Split", title: "How many annotators gave each value; a tie has no majority" },
              { key: "ratings", label: "Ratings" },
            ],
            rows: queue.open.map((e) => ({
              key: e.item.id,
              tone: e.split.tie ? "alert" : "warn",
              data: { testid: "open-disagreement", tie: e.split.tie },
              cells: [
                text(e.item.label, { href: itemHref(e.item.id) }),
                text(percent(e.agreement)),
                text(e.range === null ? "–" : String(e.range)),
                content(
                  <span className={`rounded px-1 text-xs font-medium ${e.split.tie ? "bg-red-200 text-red-950" : "bg-amber-200 text-amber-950"}`} data-testid="split">
                    {e.split.tie ? `${splitText(e.split)}: choose` : `disagree ${splitText(e.split)}`}
                  </span>,
                ),
                text(ratingsText(e.ratings)),
              ],
            })),
          }}
        />
      </section>
      {queue.adjudicated.length > 0 && (
        <section aria-label="Adjudicated">
          <h2 className="mb-2 text-lg font-medium">Adjudicated</h2>
          <DataTable
            table={{
              label: "Adjudicated",
              columns: [
                { key: "item", label: "Item" },
                { key: "consensus", label: "Consensus" },
                { key: "reason", label: "Reason" },
                { key: "ratings", label: "Ratings" },
              ],
              rows: queue.adjudicated.map((e) => ({
                key: e.item.id,
                data: { testid: "adjudicated-item" },
                cells: [text(e.item.label, { href: itemHref(e.item.id) }), text(String(e.consensus!.value)), text(e.consensus!.reason), text(ratingsText(e.ratings))],
              })),
            }}
          />
        </section>
      )}
    </div>
  );
}
