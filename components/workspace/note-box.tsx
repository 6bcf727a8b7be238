"use client";

import type { RefObject } from "react";

/**
 * A one-line text box of a review (comment or justification), registered by review id in the
 * task's map so the `m` shortcut can focus the current one.
 */
export function NoteBox({
  boxes,
  id,
  label,
  placeholder,
  value,
  onChange,
  className = "",
}: {
  boxes: RefObject<Map<string, HTMLTextAreaElement>>;
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  return (
    <textarea
      ref={(el) => {
        if (el) boxes.current.set(id, el);
        else boxes.current.delete(id);
      }}
      aria-label={label}
      placeholder={placeholder}
      rows={1}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className={`w-full rounded border border-slate-500 px-2 py-1 text-sm ${className}`}
    />
  );
}
