/** The built-in codebook of each task, from the papers (its descriptor's `codebook`), shown under the study's own guidelines. */
import { DataTable } from "@/components/dashboard/data-table";
import { text } from "@/components/dashboard/table-data";
import type { TaskType } from "@/lib/generated/prisma/enums";
import type { StudyScales } from "@/lib/analysis/questions";
import { TASKS } from "@/lib/tasks";

export function CodebookPanel({ task, study }: { task: TaskType; study: StudyScales }) {
  return (
    <div className="space-y-2 text-xs">
      {TASKS[task].codebook(study).map((section) => (
        <section key={section.title} className="space-y-1">
          <h4 className="font-semibold">{section.title}</h4>
          {section.summary && <p>{section.summary}</p>}
          {section.entries.length > 0 && (
            <DataTable
              table={{
                label: section.title,
                columns: [
                  { key: "key", label: "Key" },
                  { key: "label", label: "Name" },
                  { key: "description", label: "Definition" },
                ],
                rows: section.entries.map((entry) => ({ key: entry.key, cells: [text(entry.key, { mono: true }), text(entry.label), text(entry.description)] })),
              }}
            />
          )}
        </section>
      ))}
    </div>
  );
}
