// Shared chart bits: axis tick formatting, phase colours, an empty placeholder.
import type { ReactNode } from "react";
import { fmtTick } from "../format";

export const tick = (v: number) => fmtTick(v);
export const AXIS_STYLE = { fontSize: 12, fill: "#475569" };
export const GRID = "#e2e8f0";
/** The props of an x axis of seconds since the start (rows keyed `s`). */
export const SECONDS_AXIS = {
  dataKey: "s",
  type: "number",
  domain: ["dataMin", "dataMax"],
  allowDecimals: false,
  tick: AXIS_STYLE,
  tickFormatter: (v: number) => `${v}s`,
} as const;

export const PHASE_COLOURS: Record<string, string> = {
  baseline: "#64748b",
  scalability: "#2563eb",
  saturation: "#d97706",
  stability: "#059669",
  custom: "#7c3aed",
  ramp: "#db2777",
};

export function ChartFrame({ title, children, empty, height = 260, note }: { title: string; children: ReactNode; empty?: string | false; height?: number; note?: ReactNode }) {
  return (
    <figure className="chart" aria-label={title}>
      <figcaption>
        <span>{title}</span>
        {note && <span className="chart-note">{note}</span>}
      </figcaption>
      {empty ? (
        <div className="chart-empty" style={{ height }}>
          {empty}
        </div>
      ) : (
        <div style={{ width: "100%", height }}>{children}</div>
      )}
    </figure>
  );
}
