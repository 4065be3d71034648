// Point events (issue 39) as markers on a chart over seconds: one vertical line per fired event, labelled with its
// action and value ("backend_kill b2"), placed on the chart's own clock (its t0: the epoch second its x axis starts at).
import { ReferenceLine } from "recharts";

import type { PointEventRecord } from "../api/types";

export type { PointEventRecord };

/** The events a point fired (none for a point without events, or an older one). */
export function eventsOf(extra: Record<string, unknown> | null | undefined): PointEventRecord[] {
  const found = extra?.events;
  return Array.isArray(found) ? (found as PointEventRecord[]).filter((e) => typeof e?.t === "number" && typeof e.action === "string") : [];
}

/** An event as a marker names it: the action (without the lab's prefix) and its value; "(failed)" when it could not act. */
export function eventLabel(e: PointEventRecord): string {
  return `${e.action.replace(/^lab\./, "")} ${e.value}${e.error ? " (failed)" : ""}`;
}

/**
 * The markers of `events` on a chart whose x axis is seconds since `t0` (epoch): a red line for an event that acted,
 * a dashed grey one for an event that failed; labels alternate top and bottom so that close events stay legible.
 * `yAxisId`: the axis they are drawn against, on a chart with named axes. Children of the chart, as an array.
 */
export function eventMarkers(events: readonly PointEventRecord[], t0: number, yAxisId?: string) {
  return events.map((e, i) => (
    <ReferenceLine
      key={`event-${i}`}
      x={Number((e.t - t0).toFixed(3))}
      {...(yAxisId != null ? { yAxisId } : {})}
      stroke={e.error ? "#94a3b8" : "#dc2626"}
      strokeDasharray={e.error ? "4 3" : undefined}
      className="event-marker"
      label={{ value: eventLabel(e), position: i % 2 ? "insideBottomLeft" : "insideTopLeft", fontSize: 11, fill: "var(--chart-axis)", className: "event-marker-label" }}
      ifOverflow="extendDomain"
    />
  ));
}

/** The start of a series of rows with epoch times `t` (the chart's 0 s), 0 without rows. */
export const startOf = (rows: readonly { t: number }[]) => (rows.length ? Math.min(...rows.map((r) => r.t)) : 0);
