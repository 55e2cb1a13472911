// One way to print a duration for people: 5s, 1m05s, 2h03m, 3d04h. A bound rounds up, so a printed
// worst case never understates; progress and ETAs round to the nearest second.
export function formatDuration(ms: number, rounding: 'nearest' | 'up' = 'nearest'): string {
  const s = Math.max(0, rounding === 'up' ? Math.ceil(ms / 1000) : Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d${String(h % 24).padStart(2, '0')}h`;
}

/** A worst case, printed: rounded up. */
export const formatBound = (ms: number): string => formatDuration(ms, 'up');
