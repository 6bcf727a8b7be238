"use client";

import { DataTable } from "@/components/dashboard/data-table";
import { content, text } from "@/components/dashboard/table-data";
import type { TaskType } from "@/lib/generated/prisma/enums";
import { shortcutsOf } from "@/lib/tasks";
import { Modal } from "./modal";
import type { WorkspacePreference } from "./preferences";

/** The `?` overlay: the keyboard grammar, the annotator's preference and every shortcut of this task. */
export function ShortcutsOverlay({ task, preference, onPreference, onClose }: { task: TaskType; preference: WorkspacePreference; onPreference: (next: WorkspacePreference) => void; onClose: () => void }) {
  const rows = shortcutsOf(task);
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} testId="shortcuts">
      <p className="mb-2 text-sm text-slate-700">
        One grammar in every task: <kbd>j</kbd>/<kbd>k</kbd> move between claims or reviews, a digit answers the current question
        {preference.digitsMoveOn ? " and moves on to the next one (the next Likert dimension, then the next review)" : " and stays there"}, <kbd>m</kbd> writes a note on the current one. Single-key shortcuts do not fire while
        you type in a text box; press Esc to leave it.
      </p>
      <label className="mb-2 flex min-h-6 items-center gap-2 text-sm">
        <input type="checkbox" className="h-5 w-5" checked={preference.digitsMoveOn} onChange={(e) => onPreference({ ...preference, digitsMoveOn: e.target.checked })} data-testid="digits-move-on" />
        After a digit, move on to the next question (your setting, kept in this browser)
      </label>
      <DataTable
        table={{
          label: "Shortcuts",
          columns: [
            { key: "keys", label: "Keys" },
            { key: "action", label: "Action" },
          ],
          rows: rows.map((s, i) => ({
            key: String(i),
            cells: [
              content(
                <span className="whitespace-nowrap">
                  {s.keys.map((k, j) => (
                    <span key={j}>
                      {j > 0 && <span className="px-1 text-slate-400">{s.sequence ? "then" : "or"}</span>}
                      <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono text-xs">{k}</kbd>
                    </span>
                  ))}
                </span>,
              ),
              text(s.description),
            ],
          })),
        }}
      />
    </Modal>
  );
}
