"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { DataTable } from "@/components/dashboard/data-table";
import { content, type Tone } from "@/components/dashboard/table-data";
import { NEXT_DISAGREEMENT_ID } from "@/components/adjudication/next-disagreement";
import type { ActionResult } from "@/lib/actions/safe-action";
import { CLAIM_CODE_BY_NAME } from "@/lib/annotation/codebook";
import type { ClaimAgreement } from "@/lib/annotation/stage2";
import type { ConsolidationClaim } from "@/lib/data/assignment-admin";

type Action = "KEEP" | "REPLACE" | "DROP";
interface Choice {
  /** Null until the lead chooses (a tie has no default). */
  action: Action | null;
  replacementText: string;
}

/** How the annotators' verdicts on a claim relate, as a badge (lib/annotation/stage2 ClaimAgreement). */
const AGREEMENT: Record<ClaimAgreement, { text: string; style: string }> = {
  agree: { text: "annotators agree", style: "bg-emerald-100 text-emerald-900" },
  "same-vote": { text: "codes differ, same keep/drop", style: "bg-slate-100 text-slate-800" },
  disagree: { text: "annotators disagree", style: "bg-amber-200 text-amber-950" },
  tie: { text: "tie: choose", style: "bg-red-200 text-red-950" },
  single: { text: "one annotator", style: "bg-slate-100 text-slate-700" },
  none: { text: "not coded", style: "bg-slate-100 text-slate-700" },
  added: { text: "added by an annotator", style: "bg-sky-100 text-sky-900" },
};

const ROW: Partial<Record<ClaimAgreement, Tone>> = { disagree: "warn", tie: "alert" };

/** Side by side: every annotator's code per claim and their added claims; keep / replace / drop each. */
export function ConsolidationForm({
  slug,
  codeChangeId,
  annotators,
  claims,
  save,
}: {
  slug: string;
  codeChangeId: string;
  annotators: { name: string; status: string | null }[];
  claims: ConsolidationClaim[];
  save: (input: unknown) => Promise<ActionResult<{ decisions: number }>>;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // Corrections are decided through the claim they correct (replace with their text).
  // In claim-number order (lib/claims/numbering), as every page numbers them: the generated claims, then the added ones.
  const decidable = claims.filter((c) => c.number !== null).sort((a, b) => a.number! - b.number!);
  const corrections = claims.filter((c) => c.kind === "ANNOTATOR_ADDED" && c.correctsId);
  // A stored decision, else the suggestion; a tie starts without one (nothing is chosen for the lead).
  const [choices, setChoices] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(
      decidable.map((c) => {
        const d = c.decision ?? c.suggestion;
        return [c.id, { action: d?.action ?? null, replacementText: d?.replacementText ?? c.corrections[0]?.text ?? c.text }];
      }),
    ),
  );
  const set = (id: string, patch: Partial<Choice>) => setChoices((all) => ({ ...all, [id]: { ...all[id], ...patch } }));
  const smells = claims.filter((c) => c.kind === "SMELL");

  const agreementOf = (c: ConsolidationClaim): ClaimAgreement => c.suggestion?.agreement ?? "none";
  const disagreements = decidable.filter((c) => ["disagree", "tie"].includes(agreementOf(c))).length;
  const ties = decidable.filter((c) => agreementOf(c) === "tie").length;
  const undecidedTies = decidable.filter((c) => agreementOf(c) === "tie" && choices[c.id].action === null).length;

  const submit = () => {
    const undecided = decidable.flatMap((c) => (choices[c.id].action === null ? [c.number] : []));
    if (undecided.length > 0) {
      setMessage({ ok: false, text: `Choose keep, replace or drop for claim${undecided.length === 1 ? "" : "s"} ${undecided.join(", ")}: the annotators are split evenly, so there is no default.` });
      document.querySelector<HTMLInputElement>(`[aria-label="Decision for claim ${undecided[0]}"] input`)?.focus();
      return;
    }
    start(async () => {
      const decisions = [
        ...decidable.map((c) => ({ pseudoReferenceId: c.id, action: choices[c.id].action!, replacementText: choices[c.id].action === "REPLACE" ? choices[c.id].replacementText : null })),
        ...corrections.map((c) => ({ pseudoReferenceId: c.id, action: "DROP" as const, replacementText: null })),
      ];
      const result = await save({ slug, codeChangeId, decisions });
      setMessage(result.ok ? { ok: true, text: `Consolidated: ${result.data.decisions} decisions saved.` } : { ok: false, text: result.error });
      if (result.ok) {
        router.refresh();
        document.getElementById(NEXT_DISAGREEMENT_ID)?.focus();
      }
    });
  };

  return (
    <form
      aria-label="Consolidation"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      className="space-y-3"
    >
      <p className="text-sm" data-testid="consolidation-summary">
        {decidable.length} claim{decidable.length === 1 ? "" : "s"} to decide:{" "}
        {disagreements === 0
          ? "the annotators agree on keeping or dropping every one."
          : `the annotators disagree on ${disagreements}${ties > 0 ? `, ${ties} of them tie${ties === 1 ? "s" : ""} (split evenly: no default${undecidedTies > 0 ? ", choose" : ""})` : ""}.`}
      </p>
      <DataTable
        table={{
          label: "Claims to decide",
          columns: [
            { key: "claim", label: "Claim" },
            ...annotators.map((a, i) => ({ key: `annotator-${i}`, label: a.name, sub: a.status ? a.status.toLowerCase().replace("_", " ") : "no assignment" })),
            { key: "decision", label: "Decision" },
          ],
          rows: decidable.map((c) => {
            const choice = choices[c.id];
            const agreement = agreementOf(c);
            return {
              key: c.id,
              tone: ROW[agreement],
              data: { testid: "consolidation-claim", agreement },
              cells: [
                content(
                  <div className="max-w-md">
                    <span className={`mb-1 inline-block rounded px-1 text-xs font-medium ${AGREEMENT[agreement].style}`} data-testid="claim-agreement">
                      {agreement === "tie" && c.decision ? "tie (decided)" : AGREEMENT[agreement].text}
                    </span>
                    <span className="block">
                      <span className="text-slate-500">{c.number}. </span>
                      {c.text}
                    </span>
                    <span className="block text-xs text-slate-500">{c.kind === "ANNOTATOR_ADDED" ? `added by ${c.addedBy ?? "an annotator"}` : `${c.kind.toLowerCase()} · ${c.source}`}</span>
                    {c.corrections.map((k) => (
                      <span key={k.id} className="mt-1 block rounded bg-amber-50 px-1 text-xs">
                        correction by {k.addedBy}: “{k.text}”
                      </span>
                    ))}
                  </div>,
                ),
                ...c.verdicts.map((v) =>
                  content(
                    v ? (
                      <span className="text-xs">
                        <span className="font-medium">{v.code ? `${CLAIM_CODE_BY_NAME.get(v.code)?.value} ${CLAIM_CODE_BY_NAME.get(v.code)?.label}` : "no code"}</span>
                        {v.errorType && <span className="block">{v.errorType.toLowerCase().replace("_", "-")} error</span>}
                        {v.necessary === false && <span className="block">unnecessary</span>}
                        {v.note && <span className="block text-slate-600">“{v.note}”</span>}
                      </span>
                    ) : (
                      <span className="text-slate-400">–</span>
                    ),
                  ),
                ),
                content(
                  <>
                    <div role="radiogroup" aria-label={`Decision for claim ${c.number}`} className="flex gap-2 text-xs">
                      {(["KEEP", "REPLACE", "DROP"] as const).map((action) => (
                        <label key={action}>
                          <input type="radio" name={`d-${c.id}`} checked={choice.action === action} onChange={() => set(c.id, { action })} /> {action.toLowerCase()}
                        </label>
                      ))}
                    </div>
                    {choice.action === "REPLACE" && (
                      <textarea
                        aria-label={`Replacement for claim ${c.number}`}
                        value={choice.replacementText}
                        onChange={(e) => set(c.id, { replacementText: e.target.value })}
                        rows={2}
                        className="mt-1 w-full rounded border border-slate-300 px-1 text-xs"
                      />
                    )}
                    {!c.decision && c.suggestion && (
                      <span className={`block text-xs ${c.suggestion.action === null ? "font-medium text-red-800" : "text-slate-500"}`} data-testid="suggestion">
                        {c.suggestion.action === null ? c.suggestion.reason : `suggested ${c.suggestion.action.toLowerCase()}: ${c.suggestion.reason}`}
                      </span>
                    )}
                  </>,
                ),
              ],
            };
          }),
        }}
      />
      {smells.length > 0 && (
        <p className="text-sm text-slate-600">
          {smells.length === 1 ? "1 static-analysis smell always enters" : `${smells.length} static-analysis smells always enter`} stage 2.
        </p>
      )}
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1 text-sm text-white disabled:opacity-50">
        Save consolidation
      </button>
      {message && (
        <p role={message.ok ? "status" : "alert"} className={`text-sm ${message.ok ? "text-emerald-700" : "text-red-700"}`}>
          {message.text}
        </p>
      )}
    </form>
  );
}
