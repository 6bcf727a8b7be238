"use client";

/**
 * A dialog over the page (the keyboard shortcuts' lists): closed by its button or a click
 * outside. A module of its own, so that a page showing one loads nothing of the tasks.
 */
import type { ReactNode } from "react";

export function Modal({ title, onClose, children, testId }: { title: string; onClose: () => void; children: ReactNode; testId?: string }) {
  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center bg-slate-900/30 p-8" onClick={onClose}>
      <div role="dialog" aria-modal="true" aria-label={title} data-testid={testId} className="max-h-full w-full max-w-2xl overflow-auto rounded bg-white p-4 shadow-lg" onClick={(e) => e.stopPropagation()}>
        <div className="mb-2 flex items-center">
          <h2 className="text-lg font-semibold">{title}</h2>
          <button type="button" onClick={onClose} className="ml-auto rounded px-2 text-slate-500 hover:bg-slate-100" aria-label="Close">
            Esc ✕
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
