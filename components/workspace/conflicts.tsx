"use client";

import { ANNOTATION_KINDS, type SaveKind } from "@/lib/annotation/values";
import type { AutosaveStore, Entry } from "./autosave";

/** A one-line reading of an annotation value, for showing both sides of a conflict. */
export function describeValue(kind: SaveKind, value: unknown): string {
  if (value === null || value === undefined) return "(nothing stored)";
  const v = value as Record<string, unknown>;
  const quote = (s: unknown) => (typeof s === "string" && s ? ` · “${s.length > 120 ? `${s.slice(0, 117)}…` : s}”` : "");
  switch (kind) {
    case "judgement":
      return `${v.code ? String(v.code).toLowerCase() : "no code"}${v.errorType ? ` · ${String(v.errorType).toLowerCase().replace("_", "-")} error` : ""}${v.necessary === false ? " · unnecessary" : ""}${quote(v.note)}`;
    case "rating": {
      const scores = Object.entries((v.scores ?? {}) as Record<string, number>)
        .map(([d, s]) => `${d} ${s}`)
        .join(", ");
      const links = (v.links ?? []) as { partial: boolean }[];
      return `${scores || "no scores"} · ${links.length} addressed${links.some((l) => l.partial) ? ` (${links.filter((l) => l.partial).length} partly)` : ""}${quote(v.comment)}`;
    }
    case "necessity":
      return v.necessary === null ? "necessity not judged" : v.necessary ? "necessary" : "not necessary";
    case "grade":
      return `grade ${v.grade ?? "–"}${quote(v.comment)}`;
    case "label":
      return `${v.highQuality === undefined ? "no label" : v.highQuality ? "high quality" : "low quality"}${quote(v.justification)}`;
    case "addedClaim":
      return v.deleted ? "(removed)" : `“${String(v.text ?? "")}”`;
    case "commentAnswers": {
      const answers = Object.entries((v.answers ?? {}) as Record<string, unknown>).map(([key, answer]) => `${key} ${typeof answer === "boolean" ? (answer ? "yes" : "no") : String(answer)}`);
      return `${answers.join(", ") || "no answers"}${quote(Object.values((v.notes ?? {}) as Record<string, string>).find((note) => note))}`;
    }
  }
}

/** Every annotation whose save was refused as stale, with both values and the two ways out. */
export function ConflictList({ store, labelOf }: { store: AutosaveStore; labelOf: (entry: Entry) => string }) {
  const conflicts = ANNOTATION_KINDS.flatMap((kind) => store.list(kind)).filter((e) => e.status === "conflict" && e.conflict);
  if (conflicts.length === 0) return null;
  return (
    <section role="alert" aria-label="Conflicts" className="space-y-2 rounded border-2 border-red-400 bg-red-50 p-2 text-sm">
      {conflicts.map((e) => (
        <div key={e.key} data-testid="conflict" className="space-y-1">
          <p className="font-medium text-red-800">
            {labelOf(e)} was changed elsewhere (another tab or device); nothing was overwritten. {e.conflict!.message}
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-2">
            <dt className="font-medium">Stored{e.conflict!.current ? ` (version ${e.conflict!.current.version})` : ""}:</dt>
            <dd data-testid="conflict-stored">{describeValue(e.kind, e.conflict!.current?.value ?? null)}</dd>
            <dt className="font-medium">Yours:</dt>
            <dd data-testid="conflict-mine">{describeValue(e.kind, e.conflict!.attempted)}</dd>
          </dl>
          <div className="flex gap-2">
            <button type="button" onClick={() => store.resolve(e.kind, e.targetId, "mine")} className="rounded bg-red-700 px-2 py-0.5 text-white">
              Keep mine (save over it)
            </button>
            <button type="button" onClick={() => store.resolve(e.kind, e.targetId, "theirs")} className="rounded border border-red-700 px-2 py-0.5 text-red-800">
              Take the stored value
            </button>
          </div>
        </div>
      ))}
    </section>
  );
}
