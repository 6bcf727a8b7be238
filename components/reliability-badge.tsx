/** Marks an item of the study's reliability set (every annotator labels it, for agreement). */
export function ReliabilityBadge() {
  return <span className="ml-1 rounded bg-violet-100 px-1 font-sans text-xs text-violet-800">reliability</span>;
}
