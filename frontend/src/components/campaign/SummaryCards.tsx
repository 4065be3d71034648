import type { Analysis, CampaignOut } from "../../api/types";
import { fmtMs, fmtNumber, fmtPct, fmtRate } from "../../format";

function Card({ label, value, sub, testid }: { label: string; value: string; sub?: string; testid?: string }) {
  return (
    <div className="stat-card" data-testid={testid}>
      <span className="stat-label">{label}</span>
      <span className={`stat-value ${/^[\d−-]|^N\*/.test(value) ? "" : "text"}`}>{value}</span>
      {sub && <span className="stat-sub">{sub}</span>}
    </div>
  );
}

export default function SummaryCards({ campaign, analysis }: { campaign: CampaignOut; analysis: Analysis | null }) {
  const s = campaign.summary;
  const tool = campaign.tool;
  const knee = analysis?.knee;
  const usl = analysis?.usl;
  return (
    <div className="stat-cards">
      <Card label="Max achieved rate" value={fmtRate(s.max_achieved_rate, tool)} sub={analysis?.ceiling?.achieved_rate != null ? `ceiling ${fmtRate(analysis.ceiling.achieved_rate, tool)}` : undefined} testid="card-max-rate" />
      <Card label="Baseline latency" value={fmtMs(s.baseline_latency_ms)} />
      <Card label="Loss" value={fmtPct(s.loss_pct)} sub={`${s.points_completed} points ok${s.points_failed ? `, ${s.points_failed} failed` : ""}`} />
      {knee && (knee.achieved_rate != null || knee.offered_rate != null) ? (
        <Card label="Knee" value={fmtRate(knee.achieved_rate ?? knee.offered_rate, tool)} sub={knee.latency_avg_ms != null ? `at ${fmtMs(knee.latency_avg_ms)}` : undefined} testid="card-knee" />
      ) : (
        <Card label="Knee" value="not found" sub={analysis ? "latency stayed flat" : ["queued", "starting", "running"].includes(campaign.status) ? "analysed as points land" : s.points_completed ? "no analysis" : "no completed points"} />
      )}
      {analysis?.optimal_concurrency != null && <Card label="Optimal concurrency" value={fmtNumber(analysis.optimal_concurrency, 1)} sub="Little's law" />}
      {usl?.peak_concurrency != null && (
        <Card label="USL peak" value={`N* ≈ ${fmtNumber(usl.peak_concurrency, 1)}`} sub={usl.peak_rate != null ? fmtRate(usl.peak_rate, tool) : undefined} />
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
