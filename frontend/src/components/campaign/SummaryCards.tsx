import type { ReactNode } from "react";
import { isActive, type Analysis, type CampaignOut, type Capacity } from "../../api/types";
import { fmtMs, fmtNumber, fmtPct, fmtRange, fmtUnit } from "../../format";
import { latencyLabel, rateUnitOf, type ToolInfo } from "../../tools/catalog";

function Card({ label, value, sub, testid, extra, className = "" }: { label: string; value: string; sub?: ReactNode; testid?: string; extra?: ReactNode; className?: string }) {
  return (
    <div className={`stat-card ${className}`} data-testid={testid}>
      <span className="stat-label">{label}</span>
      <span className={`stat-value ${/^[\d−<≥-]|^N\*/.test(value) ? "" : "text"}`}>
        {value}
        {extra}
      </span>
      {sub && <span className="stat-sub">{sub}</span>}
    </div>
  );
}

/** A capacity as a reader should read it: measured ("14,834 qps"), a lower bound ("≥ 4,000 qps") or an upper bound ("< 500 qps"). */
export function capacityText(cap: Pick<Capacity, "kind" | "value">, unit: string): string {
  if (cap.value == null) return "none";
  const figure = fmtUnit(cap.value, unit);
  return cap.kind === "at_least" ? `≥ ${figure}` : cap.kind === "below" ? `< ${figure}` : figure;
}

/**
 * The headline: the capacity a search found, else the highest load that keeps the latency target ("Capacity at p99 ≤ 3 ms: 14,834 qps [14,500–15,100]"),
 * with how it was found and its bootstrap interval when the points were repeated; a bound is said as a bound
 * ("≥ 4,000 qps — the SLO held at every load tested"), never as a measurement.
 */
export function CapacityCard({ analysis, tool, active }: { analysis: Analysis | null; tool: ToolInfo | undefined; active: boolean }) {
  const cap = analysis?.capacity;
  const unit = rateUnitOf(tool);
  const searched = analysis?.search?.find((s) => s.done && s.criteria?.length)?.criteria?.[0];
  if (searched) {
    // a search's trials are a bisection, not a sweep: its capacity is the one it searched for
    return (
      <Card
        label={`Capacity at ${searched.criterion}`}
        value={capacityText(searched, unit)}
        sub={
          <span data-testid="capacity-kind" data-kind={searched.kind}>
            found by the search, to {searched.resolution_pct} %: {searched.statement}
          </span>
        }
        testid="card-capacity"
        className="lead"
      />
    );
  }
  if (!cap) {
    const why = active && !analysis ? "analysed as points land" : analysis ? "needs a load sweep with a latency measured" : "no analysis";
    return <Card label="Capacity at SLO" value="not measured" sub={why} testid="card-capacity" className="lead" />;
  }
  const label = `Capacity at ${latencyLabel(tool, cap.metric)} ≤ ${fmtMs(cap.limit_ms)}`;
  const measured = cap.kind === "between" && cap.value != null;
  const hasCi = measured && cap.ci_low != null && cap.ci_high != null;
  return (
    <Card
      label={label}
      value={capacityText(cap, unit)}
      extra={
        hasCi ? (
          <span className="stat-interval" data-testid="capacity-interval" title={`95 % bootstrap interval over ${cap.repeats} repetitions per load`}>
            {" "}
            [{fmtRange(cap.ci_low, cap.ci_high, unit, fmtUnit(cap.value, unit))}]
          </span>
        ) : undefined
      }
      sub={
        <span data-testid="capacity-kind" data-kind={cap.kind}>
          {cap.how}
          {measured && !hasCi && <span className="muted"> · no interval: one run per load</span>}
          {cap.min_efficiency != null && <span className="muted"> · efficiency ≥ {fmtPct(cap.min_efficiency * 100, 0)}</span>}
        </span>
      }
      testid="card-capacity"
      className="lead"
    />
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
      <CapacityCard analysis={analysis} tool={tool} active={isActive(campaign.status)} />
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
