export function ProgressBar({ done, total, label }: { done: number; total: number; label: string }) {
  const percent = total === 0 ? 0 : Math.round((100 * done) / total);
  return (
    <div className="flex items-center gap-2" aria-label={label}>
      <div className="h-2 w-40 rounded bg-slate-200" role="progressbar" aria-valuenow={done} aria-valuemin={0} aria-valuemax={total}>
        <div className="h-2 rounded bg-emerald-600" style={{ width: `${percent}%` }} />
      </div>
      <span className="text-sm tabular-nums text-slate-600">
        {done} / {total}
      </span>
    </div>
  );
}
