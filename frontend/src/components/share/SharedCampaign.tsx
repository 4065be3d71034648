import { useState } from "react";
import type { SharedReport } from "../../api/shares";
import { analysisOf, type CampaignOut, type Point } from "../../api/types";
import KneeChart from "../../charts/KneeChart";
import PercentileChart from "../../charts/PercentileChart";
import ScalabilityChart from "../../charts/ScalabilityChart";
import { summaryOf, variantLabels } from "../../charts/pointData";
import { fmtDateTime } from "../../format";
import { findTool } from "../../tools/catalog";
import FactsTable from "../campaign/FactsTable";
import PointsTable from "../campaign/PointsTable";
import StabilityChart, { variantAnalysis } from "../campaign/StabilityChart";
import SummaryCards from "../campaign/SummaryCards";
import StatusBadge from "../common/StatusBadge";

/** One campaign's report as a share link shows it: the report page's charts and tables, read-only, with the pinned analysis. */
export default function SharedCampaign({ report }: { report: SharedReport & { campaign: CampaignOut; points: Point[] } }) {
  const c = report.campaign;
  const tool = findTool(report.tools, c.tool);
  const labels = variantLabels(c.plan, report.points);
  const [picked, setPicked] = useState<string | null>(null);
  const variant = labels.length ? (picked ?? labels[0]) : null;
  const pts = variant != null ? report.points.filter((p) => p.variant === variant) : report.points;
  const analysis = variantAnalysis(analysisOf(c), variant, labels[0] ?? null);
  const summary = variant != null ? { ...c.summary, ...summaryOf(pts) } : c.summary;
  const target = c.target as { name?: string; host?: string; port?: number };

  return (
    <div className="page campaign-page shared" data-status={c.status}>
      <div className="page-head">
        <div>
          <h1>{c.name}</h1>
          <div className="subline">
            <StatusBadge status={c.status} partial={c.partial} />
            <span title={c.tool}>{tool?.title ?? c.tool}</span>
            <span>→ {target?.name ?? "target"}</span>
            <span className="muted">
              {fmtDateTime(c.started_at ?? c.created_at)}
              {c.ended_at ? ` – ${fmtDateTime(c.ended_at)}` : ""}
            </span>
          </div>
        </div>
      </div>
      {variant != null && (
        <div className="tabs" role="tablist" aria-label="Variants">
          {labels.map((l) => (
            <button key={l} type="button" role="tab" aria-selected={l === variant} onClick={() => setPicked(l)}>
              {l}
            </button>
          ))}
        </div>
      )}
      <div className="stack">
        <SummaryCards campaign={{ ...c, summary }} analysis={analysis} tool={tool} />
        {analysis?.conclusion && (
          <section className="card conclusion" aria-label="Conclusion">
            <h2>Conclusion</h2>
            <p>{analysis.conclusion}</p>
          </section>
        )}
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
        <section className="card flush" aria-label="Points">
          <h2 className="pad">Points</h2>
          <PointsTable points={pts} tool={tool} evidence={false} />
        </section>
        <section className="card" aria-label="Environment">
          <h2>Environment</h2>
          <FactsTable facts={c.environment} omit={["variants"]} />
        </section>
      </div>
    </div>
  );
}
