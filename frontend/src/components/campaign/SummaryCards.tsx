import type { ReactNode } from "react";
import { isActive, type Analysis, type CampaignOut, type Capacity, type SearchedCapacity } from "../../api/types";
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

/** A capacity's interval beside its figure: "[14,500–15,100]". */
function Interval({ of, unit, title }: { of: { value: number | null; ci_low?: number | null; ci_high?: number | null }; unit: string; title: string }) {
  return (
    <span className="stat-interval" data-testid="capacity-interval" title={title}>
      {" "}
      [{fmtRange(of.ci_low, of.ci_high, unit, fmtUnit(of.value, unit))}]
    </span>
  );
}

const SLO_SOURCE: Record<string, string> = { plan: "the plan's SLO", settings: "SLO from the analysis settings", default: "default SLO: the plan sets none" };

/** A searched capacity as a card: the mean of the search's repetitions with its interval, labelled with its criterion. */
function SearchedCard({ found, unit, lead }: { found: SearchedCapacity; unit: string; lead: boolean }) {
  const measured = found.kind === "between" && found.value != null;
  const hasCi = measured && found.ci_low != null && found.ci_high != null;
  return (
    <Card
      label={`Capacity at ${found.label}`}
      value={capacityText(found, unit)}
      extra={hasCi ? <Interval of={found} unit={unit} title={found.repeats > 1 ? `95 % bootstrap interval over ${found.repeats} repetitions` : "the search's last bracket"} /> : undefined}
      sub={
        <span data-testid="capacity-kind" data-kind={found.kind}>
          found by the search{found.resolution_pct != null ? `, to ${found.resolution_pct} %` : ""}
          {found.repeats > 1 ? `, mean of ${found.repeats} repetitions (${(found.per_repeat ?? []).map((r) => fmtUnit(r.value, unit)).join(", ")})` : ""}
        </span>
      }
      testid={lead ? "card-capacity" : "card-searched"}
      className={lead ? "lead" : ""}
    />
  );
}

/**
 * The headline: the capacities a search found (each criterion, the mean of its repetitions), else the highest load
 * that keeps the latency target ("Capacity at p99 ≤ 3 ms: 14,834 qps [14,500–15,100]"), with how it was found, where
 * its SLO came from, and its bootstrap interval when the points were repeated; a bound is said as a bound
 * ("≥ 4,000 qps — the SLO held at every load tested"), never as a measurement.
 */
export function CapacityCard({ analysis, tool, active }: { analysis: Analysis | null; tool: ToolInfo | undefined; active: boolean }) {
  const cap = analysis?.capacity;
  const unit = rateUnitOf(tool);
  const searched = analysis?.searched ?? [];
  if (searched.length) {
    // a search's trials are a bisection, not a sweep: its capacities are the ones it searched for
    return (
      <>
        {searched.map((found, i) => (
          <SearchedCard key={found.criterion} found={found} unit={unit} lead={i === 0} />
        ))}
      </>
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
      extra={hasCi ? <Interval of={cap} unit={unit} title={`95 % bootstrap interval over ${cap.repeats} repetitions per load`} /> : undefined}
      sub={
        <span data-testid="capacity-kind" data-kind={cap.kind}>
          {cap.how}
          {measured && !hasCi && <span className="muted"> · no interval: one run per load</span>}
          {(cap.per_repeat?.length ?? 0) > 1 && (
            <span className="muted" data-testid="capacity-repeats">
              {" "}
              · each repetition: {(cap.per_repeat ?? []).map((r) => capacityText(r, unit)).join(", ")}
            </span>
          )}
          {cap.min_efficiency != null && <span className="muted"> · efficiency ≥ {fmtPct(cap.min_efficiency * 100, 0)}</span>}
          <span className="muted" data-testid="slo-source"> · {SLO_SOURCE[cap.slo_source ?? "default"]}</span>
        </span>
      }
      testid="card-capacity"
      className="lead"
    />
  );
}

/** The campaign's summary and analysis as cards, each naming its metric and rule; rates in the tool's unit. */
export default function SummaryCards({ campaign, analysis, tool }: { campaign: CampaignOut; analysis: Analysis | null; tool: ToolInfo | undefined }) {
  const s = campaign.summary;
  const unit = rateUnitOf(tool);
  const fmtRate = (v: number | null | undefined) => fmtUnit(v, unit);
  const knee = analysis?.knee;
  const usl = analysis?.usl;
  const ceiling = analysis?.ceiling;
  const inflight = analysis?.requests_in_flight;
  const top = ceiling?.achieved_rate ?? s.max_achieved_rate;
  return (
    <div className="stat-cards">
      <CapacityCard analysis={analysis} tool={tool} active={isActive(campaign.status)} />
      <Card
        label="Ceiling"
        value={ceiling?.bound && top != null ? `≥ ${fmtRate(top)}` : fmtRate(top)}
        sub={ceiling?.statement ?? (ceiling?.bound ? "highest achieved rate (mean of repetitions); that load kept up, so the limit lies above" : "highest achieved rate (mean of repetitions)")}
        testid="card-max-rate"
      />
      <Card label="Mean latency at low load" value={fmtMs(s.baseline_latency_ms)} sub="the baseline phase, else the lowest load" testid="card-low-load" />
      <Card label="Loss" value={fmtPct(s.loss_pct)} sub={`${s.points_completed} points ok${s.points_failed ? `, ${s.points_failed} failed` : ""}`} />
      {knee && knee.offered_rate != null ? (
        <Card
          label={knee.load_axis === "achieved" ? "Knee (achieved)" : "Knee (offered)"}
          value={fmtRate(knee.offered_rate)}
          sub={
            <span data-testid="knee-rule" title={knee.why ?? undefined}>
              {knee.rule_text}
              {knee.latency_avg_ms != null ? ` · ${knee.load_axis === "offered" && knee.achieved_rate != null ? `${fmtRate(knee.achieved_rate)} achieved at ` : "at "}${fmtMs(knee.latency_avg_ms)} mean` : ""}
            </span>
          }
          testid="card-knee"
        />
      ) : (
        <Card label="Knee" value="not found" sub={analysis ? "latency stayed on its plateau and throughput followed the offered load: it lies beyond the sweep" : isActive(campaign.status) ? "analysed as points land" : s.points_completed ? "no analysis" : "no completed points"} />
      )}
      {inflight?.at_ceiling != null && (
        <Card
          label="Requests in flight (Little's law)"
          value={fmtNumber(inflight.at_ceiling, 1)}
          sub={`ceiling × ${fmtMs(inflight.baseline_ms)} baseline latency${inflight.at_knee != null ? `; ${fmtNumber(inflight.at_knee, 1)} at the knee` : ""} — requests, not the tool's clients`}
          testid="card-in-flight"
        />
      )}
      {usl?.peak_concurrency != null && (
        <Card label="USL peak" value={`N* ≈ ${fmtNumber(usl.peak_concurrency, 1)}`} sub={usl.peak_rate != null ? `${fmtRate(usl.peak_rate)} predicted` : undefined} />
      )}
      {analysis?.stability?.verdict && (
        <Card
          label="Stability"
          value={analysis.stability.verdict}
          sub={analysis.stability.statement ?? (analysis.stability.rate_drift_pct != null ? `achieved rate drift ${fmtPct(analysis.stability.rate_drift_pct)}` : undefined)}
        />
      )}
    </div>
  );
}
