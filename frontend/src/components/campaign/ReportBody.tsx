import type { ReactNode } from "react";
import { analysisOf, type CampaignOut, type Point } from "../../api/types";
import KneeChart from "../../charts/KneeChart";
import { HostCpuChart } from "../../charts/MonitorCharts";
import PercentileChart from "../../charts/PercentileChart";
import ScalabilityChart from "../../charts/ScalabilityChart";
import { summaryOf } from "../../charts/pointData";
import type { ToolInfo } from "../../tools/catalog";
import PointsTable from "./PointsTable";
import SearchPanel from "./SearchPanel";
import StabilityChart, { variantAnalysis } from "./StabilityChart";
import SteadyNote from "./SteadyNote";
import SummaryCards from "./SummaryCards";

/**
 * One variant's report (or the whole campaign's, `variant` null), read-only: the cards, the conclusion, its searches, the charts and
 * the points table, as a share link and an exported file show it. `children` go between the charts and the table.
 */
export default function ReportBody({ campaign: c, points, variant, labels, tool, children }: {
  campaign: CampaignOut;
  points: Point[];
  variant: string | null;
  labels: string[];
  tool: ToolInfo | undefined;
  children?: ReactNode;
}) {
  const pts = variant != null ? points.filter((p) => p.variant === variant) : points;
  const analysis = variantAnalysis(analysisOf(c), variant, labels[0] ?? null);
  const summary = variant != null ? { ...c.summary, ...summaryOf(pts) } : c.summary;
  const suffix = variant != null ? <span className="muted"> · {variant}</span> : null;
  return (
    <div className="stack">
      <SummaryCards campaign={{ ...c, summary }} analysis={analysis} tool={tool} />
      {analysis?.conclusion && (
        <section className="card conclusion" aria-label="Conclusion">
          <h2>Conclusion{suffix}</h2>
          <p>{analysis.conclusion}</p>
        </section>
      )}
      {analysis?.error && <div className="banner warn">{analysis.error}</div>}
      <SearchPanel results={analysis?.search} />
      <div className="chart-grid">
        <section className="card">
          <ScalabilityChart points={pts} tool={tool} usl={analysis?.usl} />
        </section>
        <section className="card">
          <KneeChart points={pts} tool={tool} analysis={analysis} />
        </section>
      </div>
      <PercentileChart points={pts} tool={tool} />
      <StabilityChart points={pts} tool={tool} />
      <HostCpuChart points={pts} />
      {children}
      <section className="card flush" aria-label="Points">
        <h2 className="pad">Points{suffix}</h2>
        <SteadyNote points={pts} />
        <PointsTable points={pts} tool={tool} evidence={false} showAttempt={c.attempt > 1} />
      </section>
    </div>
  );
}
