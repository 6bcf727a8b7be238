"use client";

import { useEffect, useRef, useState } from "react";
import type { AgreementReport, QuestionAgreement } from "@/lib/analysis";
import { windowsTable, coefficientLabel, confusionTable, disagreementsTable, pairwiseTable, questionId } from "./agreement-tables";
import { WindowChart } from "./charts/window-chart";
import { DataTable } from "./data-table";

/**
 * A question's pairwise agreement, confusion matrix, agreement per window (chart and table) and
 * disagreements, drawn in the browser when the lead opens them: closed, they cost the page
 * neither server rendering nor hydration (the agreement dashboard's first screen).
 */
/** Questions whose details the lead opened on this page, kept when the report is replaced (CIs streaming in, a refresh). */
const openQuestions = new Set<string>();

export function QuestionDetails({ slug, q, settings }: { slug: string; q: QuestionAgreement; settings: AgreementReport["settings"] }) {
  const key = `${slug}/${questionId(q)}`;
  const ref = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(() => openQuestions.has(key));
  const toggle = (isOpen: boolean) => {
    if (isOpen) openQuestions.add(key);
    else openQuestions.delete(key);
    setOpen(isOpen);
  };
  // A <details> opened before hydration toggled without React: draw its figures now.
  useEffect(() => toggle(ref.current?.open ?? false), []); // eslint-disable-line react-hooks/exhaustive-deps
  const confusion = open ? confusionTable(slug, q) : null;
  return (
    <details ref={ref} open={open} onToggle={(e) => toggle(e.currentTarget.open)} data-testid={`details-${questionId(q)}`}>
      <summary className="cursor-pointer py-1 text-sm text-blue-700 hover:underline">Pairwise agreement, confusion matrix, agreement per window and the items with the most disagreement</summary>
      {open && (
        <div className="mt-2 space-y-4">
          <div className="grid gap-4 lg:grid-cols-2">
            <DataTable table={pairwiseTable(slug, q)} note={q.pairwise.method} />
            {confusion ? <DataTable table={confusion} /> : <p className="text-sm text-slate-500">No two annotators rated a common item yet: no confusion matrix.</p>}
          </div>
          <div className="space-y-2">
            <WindowChart
              label={`Agreement per window of ${settings.windowSize} items (study order): ${q.label}`}
              series={q.coefficients.map((c) => ({ key: c.key, label: coefficientLabel(c, q.level) }))}
              points={q.windows.map((b) => ({
                window: b.window,
                items: b.items,
                range: `${b.firstItem} … ${b.lastItem}`,
                values: Object.fromEntries(b.coefficients.map((c) => [c.key, c.value])),
              }))}
            />
            <DataTable table={windowsTable(slug, q)} note={`Windows of ${settings.windowSize} consecutive items rated by two or more annotators; no CIs per window.`} />
          </div>
          <DataTable table={disagreementsTable(slug, q, settings.disagreements)} note="Lowest agreement first, then the widest range. Follow an item to adjudicate it." />
        </div>
      )}
    </details>
  );
}
