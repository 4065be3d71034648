/** Charts draw at most this many points per series. */
export const MAX_CHART_POINTS = 2000;

/**
 * Keep at most `max` items, evenly spaced, always keeping the first and the last. A guard for
 * series that arrive longer than expected (live samples, old API responses).
 */
export function downsample<T>(items: readonly T[], max = MAX_CHART_POINTS): T[] {
  if (max < 2) return items.slice(0, Math.max(0, max));
  if (items.length <= max) return items.slice();
  const out: T[] = [];
  const step = (items.length - 1) / (max - 1);
  for (let i = 0; i < max; i++) out.push(items[Math.round(i * step)]);
  return out;
}

/** Append to a bounded live buffer: beyond `max`, halve the resolution of the older half. */
export function appendBounded<T>(items: readonly T[], item: T, max = MAX_CHART_POINTS): T[] {
  const next = [...items, item];
  if (next.length <= max) return next;
  return downsample(next, Math.floor(max * 0.75));
}
