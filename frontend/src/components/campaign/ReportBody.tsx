import type { ReactNode } from "react";
import { asksCpuProfile } from "../../api/cpuProfiles";
import { analysisOf, evidenceOf, isActive, type CampaignOut, type Point, type Analysis, type SearchEvent } from "../../api/types";
import KneeChart from "../../charts/KneeChart";
import { HostCpuChart } from "../../charts/MonitorCharts";
import PercentileChart from "../../charts/PercentileChart";
import ScalabilityChart from "../../charts/ScalabilityChart";
import { summaryOf } from "../../charts/pointData";
import type { ToolInfo } from "../../tools/catalog";
import { Empty } from "../common/States";
import DistributionTable from "../failover/DistributionTable";
import LinkCostTable from "./LinkCostTable";
import FailoverTable from "../failover/FailoverTable";
import OutcomesCard from "../failover/OutcomesCard";
import CpuProfile from "../profiling/CpuProfile";
import PointsTable from "./PointsTable";
import SearchPanel from "./SearchPanel";
import ServerEvidence from "./ServerEvidence";
import StabilityChart, { variantAnalysis } from "./StabilityChart";
import SteadyNote from "./SteadyNote";
import SummaryCards from "./SummaryCards";
import UntilDecidedPanel, { type UntilDecidedRecord } from "./UntilDecidedPanel";

/**
 * The conclusion read at a glance: the headline (where it is fine, where it breaks, what limits it, with the numbers), then
 * the detail, a paragraph per section. An analysis stored before headlines shows its one paragraph.
 */
export function Conclusion({ analysis, suffix }: { analysis: Pick<Analysis, "headline" | "sections" | "conclusion">; suffix?: ReactNode }) {
  const sections = analysis.headline ? (analysis.sections ?? []) : [];
  return (
    <section className="card conclusion" aria-label="Conclusion">
      <h2>Conclusion{suffix}</h2>
      {analysis.headline ? (
        <>
          <p className="headline" data-testid="conclusion-headline">
            {analysis.headline}
          </p>
          {sections.length > 0 && (
            <div className="conclusion-sections" data-testid="conclusion-sections">
              {sections.map((s) => (
                <p key={s.key} data-section={s.key}>
                  {s.text}
                </p>
              ))}
            </div>
          )}
        </>
      ) : (
        <p>{analysis.conclusion}</p>
      )}
    </section>
  );
}

/**
 * One variant's report (or the whole campaign's, `variant` null): the cards, the conclusion, the server's evidence, its searches,
 * the charts and the points table. The app's campaign page, a share link and an exported file all render it, so what is added
 * here shows in all three. The app adds its own parts through the props: `controls` under the conclusion and the server's evidence (the analysis settings),
 * `children` between the charts and the table (the timeline), `placeholder` instead of the charts and table while the points
 * load, `searchEvents` for a search running live, `pointEvidence` for the table's evidence buttons. `profilePoints`: the
 * points whose CPU profile is drawn here, static (a share page and a file, which have no evidence to open: the point
 * each variant's report details); in the app each point's is in its evidence, zoomable.
 */
export default function ReportBody({
  campaign: c,
  points,
  variant,
  labels,
  tool,
  controls,
  children,
  placeholder,
  searchEvents,
  pointEvidence = false,
  profilePoints = [],
}: {
  campaign: CampaignOut;
  points: Point[];
  variant: string | null;
  labels: string[];
  tool: ToolInfo | undefined;
  controls?: ReactNode;
  children?: ReactNode;
  placeholder?: ReactNode;
  searchEvents?: Record<string, SearchEvent[]>;
  pointEvidence?: boolean;
  profilePoints?: number[];
}) {
  const pts = variant != null ? points.filter((p) => p.variant === variant) : points;
  const analysis = variantAnalysis(analysisOf(c), variant, labels[0] ?? null);
  const summary = variant != null ? { ...c.summary, ...summaryOf(pts) } : c.summary;
  const suffix = variant != null ? <span className="muted"> · {variant}</span> : null;
  // while a search runs its bracket comes live; its stored result once the campaign has ended
  const live = searchEvents && isActive(c.status);
  const events = live ? Object.fromEntries(Object.entries(searchEvents).filter(([, e]) => variant == null || e[0]?.variant === variant)) : undefined;
  return (
    <div className="stack">
      <SummaryCards campaign={{ ...c, summary }} analysis={analysis} tool={tool} />
      {(analysis?.headline || analysis?.conclusion) && <Conclusion analysis={analysis} suffix={suffix} />}
      {variant != null && !analysis && c.summary.points_completed > 0 && <div className="banner warn">No analysis for variant “{variant}” yet.</div>}
      {analysis?.error && <div className="banner warn">{analysis.error}</div>}
      {variant == null && <UntilDecidedPanel record={c.analysis?.until_decided as UntilDecidedRecord | null | undefined} />}
      <ServerEvidence evidence={evidenceOf(analysis)} tool={tool} suffix={suffix} />
      {controls}
      <SearchPanel events={events} results={live ? null : analysis?.search} />
      {placeholder ??
        (pts.length === 0 ? (
          <Empty>{variant != null && points.length ? `No points of variant “${variant}” yet.` : "No points yet."}</Empty>
        ) : (
          <>
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
            <OutcomesCard points={pts} />
            <FailoverTable points={pts} suffix={suffix} />
            <DistributionTable points={pts} suffix={suffix} />
            <LinkCostTable points={pts} suffix={suffix} />
            <HostCpuChart points={pts} />
            {pts
              .filter((p) => profilePoints.includes(p.id))
              .map((p) => (
                <section className="card" key={p.id}>
                  <CpuProfile pointId={p.id} heading={`CPU profile of point ${p.seq + 1}`} />
                </section>
              ))}
            {children}
            <section className="card flush" aria-label="Points">
              <h2 className="pad">Points{suffix}</h2>
              <SteadyNote points={pts} />
              <PointsTable points={pts} tool={tool} evidence={pointEvidence} showAttempt={c.attempt > 1} cpuProfile={asksCpuProfile(c.plan)} />
            </section>
          </>
        ))}
    </div>
  );
}
