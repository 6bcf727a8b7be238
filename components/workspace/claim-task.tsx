"use client";

/**
 * Stage 1, claim verification (CRScore Table 8): a code per generated claim or implication,
 * an optional error type (Table 12) and note, "unnecessary" flags (unless the study keeps the
 * stage order, which asks necessity in stage 2), corrected versions of wrong claims and missing
 * claims. Smells are listed but not judged (the paper treats static-analysis output as reliable).
 */
import { useImperativeHandle, useRef, useState } from "react";
import { firstMissingIndex } from "@/lib/annotation/completeness";
import { CLAIM_CODE_BY_NAME, CLAIM_CODE_BY_VALUE, CLAIM_CODE_INFO, ERROR_TYPE_BY_KEY, ERROR_TYPE_INFO } from "@/lib/annotation/codebook";
import type { ClaimCode } from "@/lib/generated/prisma/enums";
import { emptyClaimJudgement, NEW_CLAIM_PREFIX, type AddedClaimValue, type ClaimJudgementValue } from "@/lib/annotation/values";
import type { Entry } from "./autosave";
import { EntryNote } from "./entry-note";
import { EndOfList } from "./end-of-list";
import { clientKey, missingIn, type AnswerStore, type TaskProps } from "./types";
import { useCursor } from "./use-cursor";

function addedClaims(store: AnswerStore): { entry: Entry; value: AddedClaimValue }[] {
  return store
    .list("addedClaim")
    .map((entry) => ({ entry, value: store.value<AddedClaimValue>("addedClaim", entry.targetId) }))
    .filter((x): x is { entry: Entry; value: AddedClaimValue } => x.value !== null && !x.value.deleted);
}

/** Removes an added claim (a saved one is deleted on the server; one never saved goes with nothing to delete). */
function removeAdded(store: AnswerStore, entry: Entry, value: AddedClaimValue) {
  store.set("addedClaim", entry.targetId, { text: value.text.trim() || "(removed)", correctsId: value.correctsId, deleted: true });
}

function AddedClaimEditor({ store, entry, value, label }: { store: AnswerStore; entry: Entry; value: AddedClaimValue; label: string }) {
  return (
    <div className="flex items-start gap-2">
      <textarea
        aria-label={label}
        value={value.text}
        rows={2}
        onChange={(e) => store.set("addedClaim", entry.targetId, { ...value, text: e.target.value })}
        className="w-full rounded border border-slate-500 px-2 py-1 text-sm"
      />
      <button type="button" className="rounded border border-slate-500 px-2 py-0.5 text-xs text-slate-600 hover:bg-slate-50" onClick={() => removeAdded(store, entry, value)}>
        Remove
      </button>
      <EntryNote entry={entry} />
    </div>
  );
}

export function ClaimTask({ data, store, handle, onTarget, digitsMoveOn }: TaskProps) {
  const claims = data.claimVerification!;
  const references = claims.references;
  // Opens on the first claim without a code (past the end when every claim has one).
  const [initial] = useState(() =>
    firstMissingIndex(
      references.map((r) => r.id),
      missingIn(data, store),
      "judgement",
    ),
  );
  const { cursor, atEnd, setCursor, moveOn, step, register } = useCursor(references.length, (i) => onTarget(references[i] ? `judgement:${references[i].id}` : null), initial);
  const notes = useRef(new Map<string, HTMLTextAreaElement>());
  const corrections = useRef(new Map<string, HTMLTextAreaElement>());
  const addBox = useRef<HTMLTextAreaElement>(null);
  // The claim a code key just coded and moved on from: an error type pressed next is its own (0 e 3).
  const justCoded = useRef<string | null>(null);
  const [correcting, setCorrecting] = useState<string | null>(null);
  const [draftCorrection, setDraftCorrection] = useState("");
  // The added claim the "add a missing claim" box is writing (saved as it is typed); listed once finished.
  const [writing, setWriting] = useState<string | null>(null);
  const [openNotes, setOpenNotes] = useState<Set<string>>(new Set());
  // The code under the pointer or keyboard focus: its definition shows while choosing.
  const [hint, setHint] = useState<{ id: string; code: ClaimCode } | null>(null);

  const value = (id: string) => store.value<ClaimJudgementValue>("judgement", id) ?? emptyClaimJudgement();
  const update = (id: string, patch: Partial<ClaimJudgementValue>) => store.set("judgement", id, { ...value(id), ...patch });
  const unnecessary = (v: ClaimJudgementValue) => claims.askNecessity && v.necessary === false;
  const added = addedClaims(store);
  const correctionOf = (id: string) => added.find((a) => a.value.correctsId === id);
  const select = (index: number) => {
    justCoded.current = null;
    setCursor(index);
  };

  const openNote = (id: string) => {
    setOpenNotes((s) => new Set(s).add(id));
    requestAnimationFrame(() => notes.current.get(id)?.focus());
  };
  const startCorrection = (id: string, text: string) => {
    if (!correctionOf(id)) {
      setCorrecting(id);
      setDraftCorrection(text);
    }
    // The caret at the end of the claim's text, where a correction usually starts.
    requestAnimationFrame(() => {
      const box = corrections.current.get(id);
      box?.focus();
      box?.setSelectionRange(box.value.length, box.value.length);
    });
  };
  /**
   * Typing a correction: it becomes an added claim (saved as it is typed) once it says
   * something other than the claim; emptied, it is removed again.
   */
  const editCorrection = (claimId: string, original: string, text: string) => {
    const correction = correctionOf(claimId);
    if (correction && text.trim() === "") {
      removeAdded(store, correction.entry, correction.value);
      setCorrecting(claimId);
      setDraftCorrection(text);
    } else if (correction) store.set("addedClaim", correction.entry.targetId, { ...correction.value, text });
    else if (text.trim() !== "" && text.trim() !== original.trim()) store.set("addedClaim", `${NEW_CLAIM_PREFIX}${clientKey()}`, { text, correctsId: claimId });
    else setDraftCorrection(text);
  };
  const leaveCorrection = (claimId: string) => {
    if (!correctionOf(claimId)) setCorrecting(null);
  };
  /** Typing a missing claim: the first character makes it an added claim, saved as it is typed; emptied, it is removed. */
  const editNewClaim = (text: string) => {
    const current = writing ? added.find((a) => a.entry.targetId === writing) : undefined;
    if (current && text === "") {
      removeAdded(store, current.entry, current.value);
      setWriting(null);
    } else if (current) store.set("addedClaim", current.entry.targetId, { ...current.value, text });
    else if (text.trim() !== "") {
      const key = `${NEW_CLAIM_PREFIX}${clientKey()}`;
      store.set("addedClaim", key, { text, correctsId: null });
      setWriting(key);
    }
  };

  useImperativeHandle(handle, () => ({
    onAction(action) {
      const coded = justCoded.current;
      justCoded.current = null;
      if (step(action)) return true;
      const current = references[cursor];
      switch (action.type) {
        case "digit": {
          const info = CLAIM_CODE_BY_VALUE.get(action.value);
          if (!info || !current) return false;
          update(current.id, { code: info.code });
          if (digitsMoveOn) {
            justCoded.current = current.id;
            moveOn();
          }
          return true;
        }
        case "error-type": {
          const id = coded ?? current?.id;
          if (!id) return false;
          update(id, { errorType: action.key === 0 ? null : (ERROR_TYPE_BY_KEY.get(action.key)?.type ?? null) });
          return true;
        }
        case "necessity":
          if (!current || !claims.askNecessity) return false;
          // Stage 1 records only "unnecessary"; necessary again is no mark.
          update(current.id, { necessary: action.necessary ? null : false });
          return true;
        case "note":
          if (!current) return false;
          openNote(current.id);
          return true;
        case "correct-claim":
          if (!current) return false;
          startCorrection(current.id, current.text);
          return true;
        case "add-claim":
          addBox.current?.focus();
          return true;
        default:
          return false;
      }
    },
    show(missing) {
      const index = references.findIndex((r) => r.id === missing.targetId);
      if (index >= 0) select(index);
    },
  }));

  const missing = added.filter((a) => a.value.correctsId === null && a.entry.targetId !== writing);
  const written = writing ? added.find((a) => a.entry.targetId === writing) : undefined;
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        Code each claim from the diff and the files: <kbd>1</kbd> correct, <kbd>0</kbd> incorrect, <kbd>-</kbd> <kbd>1</kbd> unverifiable, <kbd>2</kbd> ambiguous, <kbd>-</kbd> <kbd>2</kbd> incomplete. Press <kbd>?</kbd> for all
        keys.
      </p>
      <ol className="space-y-2" aria-label="Claims">
        {references.map((ref, index) => {
          const v = value(ref.id);
          const shownCode = hint?.id === ref.id ? hint.code : v.code;
          const entry = store.entry("judgement", ref.id);
          const isCurrent = index === cursor;
          const correction = correctionOf(ref.id);
          return (
            <li
              key={ref.id}
              ref={register(index)}
              data-testid="claim-judgement"
              data-code={v.code ?? ""}
              aria-current={isCurrent ? "true" : undefined}
              onClick={() => select(index)}
              className={`rounded border p-2 ${isCurrent ? "border-blue-700 ring-2 ring-blue-700" : "border-slate-200"} ${unnecessary(v) ? "bg-slate-50 opacity-80" : "bg-white"}`}
            >
              <div className="flex items-start gap-2">
                <span className="mt-0.5 w-6 shrink-0 text-right text-sm tabular-nums text-slate-500">{index + 1}.</span>
                <div className="min-w-0 flex-1">
                  <p className={`text-sm ${unnecessary(v) ? "line-through" : ""}`}>{ref.text}</p>
                  <p className="text-xs text-slate-500">
                    {ref.kind.toLowerCase()}
                    {ref.source && ` · ${ref.source}`}
                    {unnecessary(v) && <span className="ml-2 rounded bg-slate-200 px-1 text-slate-700">unnecessary</span>}
                  </p>
                  <div className="mt-1 flex flex-wrap items-center gap-1" role="radiogroup" aria-label={`Code of claim ${index + 1}`}>
                    {CLAIM_CODE_INFO.map((info) => (
                      <button
                        key={info.code}
                        type="button"
                        role="radio"
                        aria-checked={v.code === info.code}
                        title={info.description}
                        onMouseEnter={() => setHint({ id: ref.id, code: info.code })}
                        onFocus={() => setHint({ id: ref.id, code: info.code })}
                        onMouseLeave={() => setHint(null)}
                        onBlur={() => setHint(null)}
                        onClick={() => update(ref.id, { code: info.code })}
                        className={`min-h-6 rounded border px-1.5 py-0.5 text-xs ${v.code === info.code ? "border-slate-800 bg-slate-800 text-white" : "border-slate-500 hover:bg-slate-50"}`}
                      >
                        <span className="font-mono">{info.value}</span> {info.label}
                      </button>
                    ))}
                    <select
                      aria-label={`Error type of claim ${index + 1}`}
                      value={v.errorType ?? ""}
                      onChange={(e) => update(ref.id, { errorType: (e.target.value || null) as ClaimJudgementValue["errorType"] })}
                      className="min-h-6 rounded border border-slate-500 px-1 py-0.5 text-xs"
                    >
                      <option value="">error type…</option>
                      {ERROR_TYPE_INFO.map((t) => (
                        <option key={t.type} value={t.type} title={t.description}>
                          e{t.key} {t.label}
                        </option>
                      ))}
                    </select>
                    {claims.askNecessity && (
                      <button
                        type="button"
                        aria-pressed={v.necessary === false}
                        onClick={() => update(ref.id, { necessary: v.necessary === false ? null : false })}
                        className="min-h-6 rounded border border-slate-500 px-1.5 py-0.5 text-xs hover:bg-slate-50"
                      >
                        {v.necessary === false ? "y necessary again" : "u unnecessary"}
                      </button>
                    )}
                    {!openNotes.has(ref.id) && !v.note && (
                      <button type="button" onClick={() => openNote(ref.id)} className="min-h-6 rounded px-1.5 py-0.5 text-xs text-blue-700 hover:underline">
                        m note
                      </button>
                    )}
                    {!correction && correcting !== ref.id && (
                      <button type="button" onClick={() => startCorrection(ref.id, ref.text)} className="min-h-6 rounded px-1.5 py-0.5 text-xs text-blue-700 hover:underline">
                        r correct it
                      </button>
                    )}
                    <EntryNote entry={entry} />
                  </div>
                  {shownCode && (
                    <p className="mt-1 text-xs text-slate-600" data-testid="code-definition">
                      {CLAIM_CODE_BY_NAME.get(shownCode)?.label}: {CLAIM_CODE_BY_NAME.get(shownCode)?.description}
                    </p>
                  )}
                  {(openNotes.has(ref.id) || v.note) && (
                    <textarea
                      ref={(el) => {
                        if (el) notes.current.set(ref.id, el);
                        else notes.current.delete(ref.id);
                      }}
                      aria-label={`Note on claim ${index + 1}`}
                      value={v.note}
                      rows={2}
                      placeholder="Note (evidence, reasoning)…"
                      onChange={(e) => update(ref.id, { note: e.target.value })}
                      className="mt-1 w-full rounded border border-slate-500 px-2 py-1 text-sm"
                    />
                  )}
                  {(correction || correcting === ref.id) && (
                    // One text box from the first character to the saved correction, so typing never loses focus.
                    <div className="mt-1">
                      <p className="text-xs font-medium text-slate-600">Corrected claim (replaces this one in stage 2), saved as you type — Enter or Esc leaves the box:</p>
                      <div className="flex items-start gap-2">
                        <textarea
                          ref={(el) => {
                            if (el) corrections.current.set(ref.id, el);
                            else corrections.current.delete(ref.id);
                          }}
                          aria-label={`Correction of claim ${index + 1}`}
                          value={correction ? correction.value.text : draftCorrection}
                          rows={2}
                          onChange={(e) => editCorrection(ref.id, ref.text, e.target.value)}
                          onBlur={() => leaveCorrection(ref.id)}
                          onKeyDown={(e) => {
                            if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
                              e.preventDefault();
                              e.currentTarget.blur();
                            }
                          }}
                          className="w-full rounded border border-slate-500 px-2 py-1 text-sm"
                        />
                        {correction && (
                          <button type="button" className="rounded border border-slate-500 px-2 py-0.5 text-xs text-slate-600 hover:bg-slate-50" onClick={() => {
                              removeAdded(store, correction.entry, correction.value);
                              setCorrecting(null);
                            }}
                          >
                            Remove
                          </button>
                        )}
                        {correction && <EntryNote entry={correction.entry} />}
                      </div>
                    </div>
                  )}
                </div>
              </div>
            </li>
          );
        })}
      </ol>
      {atEnd && <EndOfList cardRef={register(references.length)} what="claims" />}

      {claims.smells.length > 0 && (
        <section aria-label="Smells" className="rounded border border-slate-200 bg-slate-50 p-2">
          <h3 className="text-sm font-medium">Static-analysis smells (shown, not judged)</h3>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {claims.smells.map((s) => (
              <li key={s.id}>
                {s.text} <span className="text-xs text-slate-500">· {s.source}</span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-label="Added claims" className="rounded border border-slate-200 bg-white p-2">
        <h3 className="text-sm font-medium">Missing claims you added</h3>
        <ul className="mt-1 space-y-1">
          {missing.map((a, i) => (
            <li key={a.entry.key} data-testid="added-claim">
              <AddedClaimEditor store={store} entry={a.entry} value={a.value} label={`Added claim ${i + 1}`} />
            </li>
          ))}
        </ul>
        <label className="mt-2 block text-xs text-slate-600">
          <span>
            <kbd>a</kbd> Add a missing claim — saved as you type; Enter or Esc finishes it
          </span>
          <span className="flex items-start gap-2">
            <textarea
              ref={addBox}
              aria-label="Add a missing claim"
              value={written?.value.text ?? ""}
              rows={2}
              onChange={(e) => editNewClaim(e.target.value)}
              onBlur={() => setWriting(null)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
                  e.preventDefault();
                  setWriting(null);
                }
              }}
              className="mt-1 w-full rounded border border-slate-500 px-2 py-1 text-sm"
            />
            {written && <EntryNote entry={written.entry} />}
          </span>
        </label>
      </section>
    </div>
  );
}
