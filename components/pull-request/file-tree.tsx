"use client";

import { memo } from "react";
import { statusWord } from "./file-section";
import type { PullRequestFile } from "@/lib/review-comments/display";

const STATUS_MARK = { ADDED: "A", MODIFIED: "M", DELETED: "D", RENAMED: "R" } as const;
const STATUS_CLASS = { ADDED: "bg-emerald-100 text-emerald-800", MODIFIED: "bg-amber-100 text-amber-900", DELETED: "bg-red-100 text-red-800", RENAMED: "bg-sky-100 text-sky-900" } as const;

/** The files grouped by folder, folders in the order of their first file (the pull request's order). */
export function byFolder<F extends { path: string }>(files: readonly F[]): { folder: string; files: { file: F; index: number; name: string }[] }[] {
  const groups = new Map<string, { file: F; index: number; name: string }[]>();
  files.forEach((file, index) => {
    const cut = file.path.lastIndexOf("/");
    const folder = cut < 0 ? "" : file.path.slice(0, cut);
    groups.set(folder, [...(groups.get(folder) ?? []), { file, index, name: file.path.slice(cut + 1) }]);
  });
  return [...groups].map(([folder, entries]) => ({ folder, files: entries }));
}

/** The pull request's files by folder: status, name and how many comments each has; a click goes to the file. */
export const FileTree = memo(function FileTree({ files, counts, current, onOpen }: { files: readonly PullRequestFile[]; counts: ReadonlyMap<string, number>; current: number | null; onOpen: (index: number) => void }) {
  return (
    <nav aria-label="Files" className="font-sans text-xs" data-testid="file-tree">
      <ul className="space-y-1">
        {byFolder(files).map(({ folder, files: entries }) => (
          <li key={folder}>
            {folder && <div className="truncate font-mono text-slate-500">{folder}/</div>}
            <ul className={folder ? "pl-2" : ""}>
              {entries.map(({ file, index, name }) => {
                const count = counts.get(file.codeChangeId) ?? 0;
                return (
                  <li key={file.codeChangeId}>
                    <a
                      href={`#pr-file-${index}`}
                      onClick={() => onOpen(index)}
                      aria-current={current === index ? "location" : undefined}
                      className={`flex items-center gap-1 rounded px-1 hover:bg-slate-100 ${current === index ? "bg-blue-50" : ""}`}
                      data-testid="file-tree-entry"
                      title={file.status === "RENAMED" && file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}
                    >
                      <span className={`w-4 shrink-0 rounded text-center font-mono ${file.status ? STATUS_CLASS[file.status] : "bg-slate-100"}`} aria-label={statusWord(file)}>
                        {file.status ? STATUS_MARK[file.status] : "?"}
                      </span>
                      <span className={`truncate font-mono text-blue-700 ${file.status === "DELETED" ? "line-through" : ""}`}>{name}</span>
                      {file.binary && <span className="text-slate-500">binary</span>}
                      {count > 0 && (
                        <span className="ml-auto shrink-0 rounded-full bg-slate-700 px-1.5 text-white" aria-label={`${count} comment${count === 1 ? "" : "s"}`} data-testid="file-comment-count">
                          {count}
                        </span>
                      )}
                    </a>
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  );
});
