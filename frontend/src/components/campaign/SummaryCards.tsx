import { isActive, type Analysis, type CampaignOut } from "../../api/types";
import { fmtMs, fmtNumber, fmtPct, fmtUnit } from "../../format";
import { rateUnitOf, type ToolInfo } from "../../tools/catalog";

function Card({ label, value, sub, testid }: { label: string; value: string; sub?: string; testid?: string }) {
  return (
    <div className="stat-card" data-testid={testid}>
      <span className="stat-label">{label}</span>
      <span className={`stat-value ${/^[\d−-]|^N\*/.test(value) ? "" : "text"}`}>{value}</span>
      {sub && <span className="stat-sub">{sub}</span>}
    </div>
  );
}

/** The campaign's summary and analysis as cards; rates in the tool's unit. */
export default function SummaryCards({ campaign, analysis, tool }: { campaign: CampaignOut; analysis: Analysis | null; tool: ToolInfo | undefined }) {
  const s = campaign.summary;
  const fmtRate = (v: number | null | undefined) => fmtUnit(v, rateUnitOf(tool));
  const knee = analysis?.knee;
  const usl = analysis?.usl;
  return (
    <div className="stat-cards">
      <Card label="Max achieved rate" value={fmtRate(s.max_achieved_rate)} sub={analysis?.ceiling?.achieved_rate != null ? `ceiling ${fmtRate(analysis.ceiling.achieved_rate)}` : undefined} testid="card-max-rate" />
      <Card label="Baseline latency" value={fmtMs(s.baseline_latency_ms)} />
      <Card label="Loss" value={fmtPct(s.loss_pct)} sub={`${s.points_completed} points ok${s.points_failed ? `, ${s.points_failed} failed` : ""}`} />
      {knee && (knee.achieved_rate != null || knee.offered_rate != null) ? (
        <Card label="Knee" value={fmtRate(knee.achieved_rate ?? knee.offered_rate)} sub={knee.latency_avg_ms != null ? `at ${fmtMs(knee.latency_avg_ms)}` : undefined} testid="card-knee" />
      ) : (
        <Card label="Knee" value="not found" sub={analysis ? "latency stayed flat" : isActive(campaign.status) ? "analysed as points land" : s.points_completed ? "no analysis" : "no completed points"} />
      )}
      {analysis?.optimal_concurrency != null && <Card label="Optimal concurrency" value={fmtNumber(analysis.optimal_concurrency, 1)} sub="Little's law" />}
      {usl?.peak_concurrency != null && (
        <Card label="USL peak" value={`N* ≈ ${fmtNumber(usl.peak_concurrency, 1)}`} sub={usl.peak_rate != null ? fmtRate(usl.peak_rate) : undefined} />
      )}
      {analysis?.stability?.verdict && (
        <Card
          label="Stability"
          value={analysis.stability.verdict}
          sub={analysis.stability.rate_drift_pct != null ? `rate drift ${fmtPct(analysis.stability.rate_drift_pct)}` : undefined}
        />
      )}
    </div>
  );
}
