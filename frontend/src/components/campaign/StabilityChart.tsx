import { usePointSamples } from "../../api/points";
import type { Analysis, Point } from "../../api/types";
import TimeSeriesChart from "../../charts/TimeSeriesChart";
import { eventsOf } from "../../charts/eventMarkers";
import { fmtDuration } from "../../format";
import type { ToolInfo } from "../../tools/catalog";

/** The point the report details over time: the longest completed stability point (exports/document.py reads the same). */
export const stabilityPoint = (points: Point[]): Point | undefined =>
  points.filter((p) => p.phase === "stability" && p.status === "completed").sort((a, b) => b.duration_s - a.duration_s)[0];

/** The longest stability point's samples over time (on a shared page, fetched through the link). */
export default function StabilityChart({ points, tool }: { points: Point[]; tool: ToolInfo | undefined }) {
  const stab = stabilityPoint(points);
  const samples = usePointSamples(stab?.id ?? null, "point");
  // imported results carry no interval samples: no empty chart for them
  if (!stab || (samples.isSuccess && samples.data.samples.length === 0 && !(stab.duration_s > 0))) return null;
  return (
    <section className="card">
    <TimeSeriesChart
      title={`Stability: point ${stab.seq + 1} over ${fmtDuration(stab.duration_s)}`}
      rows={samples.data?.samples ?? []}
      tool={tool}
      empty={samples.isPending ? "Loading samples…" : samples.isError ? `Samples unavailable: ${samples.error.message}` : "No samples recorded"}
      note={samples.data?.downsampled ? "downsampled" : undefined}
      events={eventsOf(stab.extra)}
    />
    </section>
  );
}

/** One variant's analysis; the top-level analysis is the first variant's, and keeps the thresholds and the variant's searches. */
export function variantAnalysis(analysis: Analysis | null, label: string | null, first: string | null): Analysis | null {
  if (!analysis || label == null) return analysis;
  const own = analysis.variants?.[label];
  const search = analysis.search?.filter((s) => s.variant === label);
  if (own) return { ...own, thresholds: analysis.thresholds, search } as Analysis;
  return label === first ? { ...analysis, search } : null;
}
