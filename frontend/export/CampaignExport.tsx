import type { CampaignOut, Point, SampleSeries } from "../src/api/types";
import { analysisOf } from "../src/api/types";
import { keys } from "../src/api/keys";
import MonitorCharts from "../src/charts/MonitorCharts";
import { eventsOf } from "../src/charts/eventMarkers";
import { variantLabels } from "../src/charts/pointData";
import CampaignTimeline from "../src/components/campaign/CampaignTimeline";
import FactsTable, { VariantFactsTable } from "../src/components/campaign/FactsTable";
import ReportBody from "../src/components/campaign/ReportBody";
import HostSharingNotice from "../src/components/campaign/HostSharingNotice";
import ReportHeading from "../src/components/campaign/ReportHeading";
import HeadlineTable from "../src/components/compare/HeadlineTable";
import PointVerdictsTable from "../src/components/compare/PointVerdictsTable";
import { findTool, type ToolInfo } from "../src/tools/catalog";
import { useQueryClient } from "@tanstack/react-query";
import { MONITOR_MAX_POINTS, type ExportDocument } from "./document";

/** The monitor charts of the points the document names among `points`, a card per point. */
function Monitors({ doc, points }: { doc: ExportDocument; points: Point[] }) {
  const qc = useQueryClient();
  const shown = points.filter((p) => doc.monitor_points?.includes(p.id));
  return (
    <>
      {shown.map((p) => {
        const data = qc.getQueryData<SampleSeries>(keys.samples(p.id, undefined, MONITOR_MAX_POINTS));
        return data?.samples.length ? (
          <section className="card" key={p.id} aria-label={`Monitors during point ${p.seq + 1}`}>
            <h2>Monitors during point {p.seq + 1}</h2>
            <MonitorCharts samples={data.samples} events={eventsOf(p.extra)} />
          </section>
        ) : null;
      })}
    </>
  );
}

/** The analysis settings the verdicts were read with, and the campaign against its plan's baseline. */
function Verdicts({ doc, campaign, tool }: { doc: ExportDocument; campaign: CampaignOut; tool: ToolInfo | undefined }) {
  const thresholds = analysisOf(campaign)?.thresholds;
  return (
    <>
      {thresholds && (
        <section className="card" aria-label="Analysis settings">
          <h2>Analysis settings</h2>
          <FactsTable facts={thresholds} />
        </section>
      )}
      {doc.baseline && (
        <section className="card flush" aria-label="Against the baseline">
          <h2 className="pad">Against the baseline #{campaign.baseline_campaign_id}</h2>
          <HeadlineTable data={doc.baseline} tool={tool} />
          <PointVerdictsTable data={doc.baseline} tool={tool} />
        </section>
      )}
    </>
  );
}

/** One campaign's report, every variant one after the other (no tabs: a file has no script to switch them). */
export default function CampaignExport({ doc }: { doc: ExportDocument & { campaign: CampaignOut; points: Point[] } }) {
  const c = doc.campaign;
  const points = doc.points;
  const tool = findTool(doc.tools, c.tool);
  const labels = variantLabels(c.plan, points);
  const envVariants = (c.environment as { variants?: Record<string, Record<string, unknown>> }).variants;
  return (
    <div className="page campaign-page export" data-status={c.status}>
      <ReportHeading campaign={c} tool={tool}>
        <span className="muted">
          #{c.id} · agent {c.agent}
        </span>
        {c.tags.map((t) => (
          <span key={t} className="tag">
            {t}
          </span>
        ))}
      </ReportHeading>
      {c.source && c.source !== "live" && <p className="muted small">Source: {c.source} (not run by Kneeboard)</p>}
      {c.error && (
        <div className="banner error" role="alert">
          <strong>{c.status === "cancelled" ? "Cancelled" : "Error"}:</strong> {c.error}
        </div>
      )}
      <HostSharingNotice campaign={c} />
      {(labels.length ? labels : [null]).map((v) => (
        <section key={v ?? ""} className="variant-section" aria-label={v != null ? `Variant ${v}` : "Report"}>
          {v != null && <h2 className="variant-title">Variant: {v}</h2>}
          <ReportBody campaign={c} points={points} variant={v} labels={labels} tool={tool} profilePoints={doc.cpu_profiles?.map((e) => e.point_id)}>
            <Monitors doc={doc} points={v != null ? points.filter((p) => p.variant === v) : points} />
          </ReportBody>
        </section>
      ))}
      {c.source === "live" && points.length > 0 && (
        <section className="card" aria-label="Timeline">
          <CampaignTimeline points={points} tool={tool} />
        </section>
      )}
      <Verdicts doc={doc} campaign={c} tool={tool} />
      {c.notes && (
        <section className="card" aria-label="Notes">
          <h2>Notes</h2>
          <p className="notes">{c.notes}</p>
        </section>
      )}
      <section className="card" aria-label="Environment">
        <h2>Environment</h2>
        <FactsTable facts={c.environment} omit={envVariants ? ["variants"] : []} empty={envVariants ? "No facts besides the variants'." : "No environment facts recorded."} />
        {envVariants && Object.keys(envVariants).length > 0 && (
          <>
            <h3>Under each variant</h3>
            <VariantFactsTable variants={envVariants} labels={labels} />
          </>
        )}
      </section>
      <section className="card" aria-label="Target">
        <h2>Target (snapshot)</h2>
        <FactsTable facts={c.target} />
      </section>
      <section className="card" aria-label="Frozen plan">
        <h2>Frozen plan</h2>
        <pre className="raw">{JSON.stringify(c.plan, null, 2)}</pre>
      </section>
    </div>
  );
}
