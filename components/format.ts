/** Display helpers shared by pages. */
/** Active time in whole seconds: "42 s", "12 min 05 s", "2 h 03 min" (time on task is counted per second). */
export function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** Mean active time per finished item, in seconds (too-fast answers show here first). */
export function secondsPerItem(ms: number, items: number): string {
  return items > 0 ? `${(ms / 1000 / items).toFixed(1)} s` : "–";
}

