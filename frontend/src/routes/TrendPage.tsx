// A plan's (or a target's with one tool, or a tag's) completed campaigns over time: headline figures, change points.
import { Link } from "react-router-dom";
import { TREND_METRICS, useTrend, type ChangePoint, type TrendCapacity, type TrendMetric, type TrendPoint, type TrendQuery } from "../api/trends";
import TrendChart, { METRIC_LABELS } from "../charts/TrendChart";
import PageHead from "../components/common/PageHead";
import { ErrorState, QueryView } from "../components/common/States";
import Table from "../components/common/Table";
import { fmtDateTime, fmtDiffRange, fmtNumber, fmtRange, fmtSignedPct } from "../format";
import { param, useUrlState } from "../urlState";

const SCHEMA = {
  plan: param.int(0, 0),
  target: param.int(0, 0),
  tool: param.str(),
  tag: param.str(),
  metric: param.oneOf(TREND_METRICS, "capacity_at_slo"),
  since: param.str(),
};
const SHOWN_ROWS = 100;

/** Capacity at SLO as what it is: a figure with its interval, a lower bound, or none reached. */
export function fmtCapacity(c: TrendCapacity): string {
  if (c.kind === "at_least") return `≥ ${fmtNumber(c.bound ?? c.value)}`;
  if (c.kind === "below") return c.bound != null ? `< ${fmtNumber(c.bound)}` : "below the lowest load";
  if (c.value == null) return "—";
  return c.low != null && c.high != null ? `${fmtNumber(c.value)} [${fmtRange(c.low, c.high, null)}]` : fmtNumber(c.value);
}

function title(q: { plan: number; target: number; tool: string; tag: string }): string {
  if (q.plan) return `Trend of plan #${q.plan}`;
  if (q.target) return `Trend of target #${q.target} with ${q.tool || "?"}`;
  return q.tag ? `Trend of tag ${q.tag}` : "Trend";
}

function Differed({ c }: { c: ChangePoint }) {
  const rows = (["plan", "target", "environment", "notes"] as const).flatMap((kind) => (c.differences[kind] ?? []).map((d) => ({ kind, d })));
  if (!rows.length) return <span className="muted">nothing recorded differs</span>;
  return (
    <ul className="small plain">
      {rows.slice(0, 8).map(({ kind, d }) => {
        const values = d.values as Record<string, string | null>;
        return (
          <li key={`${kind}-${String(d.key)}`}>
            {kind} <code>{String(d.key)}</code>: {values[String(c.before_campaign_id)] ?? "—"} → {values[String(c.after_campaign_id)] ?? "—"}
          </li>
        );
      })}
      {rows.length > 8 && <li className="muted">and {rows.length - 8} more (see the comparison)</li>}
    </ul>
  );
}

function Changes({ changes, metric }: { changes: ChangePoint[]; metric: TrendMetric }) {
  if (!changes.length) return <p className="muted pad">No change point in {METRIC_LABELS[metric].toLowerCase()} (E-Divisive means, 5 campaigns a side at least).</p>;
  return (
    <Table columns={["Between", "Before → after", "Change (95 % CI)", "Verdict", "What differed"]} actions="Compare" label="Change points" data-testid="change-points">
      {changes.map((c) => (
        <tr key={c.after_campaign_id}>
          <td>
            #{c.before_campaign_id} → #{c.after_campaign_id}
          </td>
          <td>
            {fmtNumber(c.mean_before)} → {fmtNumber(c.mean_after)}
          </td>
          <td>
            {fmtSignedPct(c.change_pct)} ({fmtDiffRange(c.ci_low, c.ci_high, null)})
          </td>
          <td className={c.direction === "worse" ? "error-text" : ""}>{c.direction}</td>
          <td>
            <Differed c={c} />
          </td>
          <td className="row-actions">
            <Link className="btn small" to={c.compare_url}>
              Compare #{c.before_campaign_id} and #{c.after_campaign_id}
            </Link>
          </td>
        </tr>
      ))}
    </Table>
  );
}

function Rows({ points, baseline }: { points: TrendPoint[]; baseline: number | null | undefined }) {
  const newest = points.slice(-SHOWN_ROWS).reverse();
  return (
    <>
      <Table columns={["Campaign", "Ended", "Capacity", "Ceiling", "p50 low load (ms)", "p99 low load (ms)", "Loss %"]} label="Campaigns of the trend">
        {newest.map((p) => (
          <tr key={p.campaign_id}>
            <td>
              <Link to={`/campaigns/${p.campaign_id}`}>#{p.campaign_id}</Link> {p.campaign_id === baseline && <span className="muted small">(baseline)</span>}
            </td>
            <td className="muted small">{fmtDateTime(p.ended_at)}</td>
            <td>{fmtCapacity(p.capacity)}</td>
            <td>{fmtNumber(p.max_achieved_rate)}</td>
            <td>{fmtNumber(p.latency_p50_ms)}</td>
            <td>{fmtNumber(p.latency_p99_ms)}</td>
            <td>{fmtNumber(p.loss_pct)}</td>
          </tr>
        ))}
      </Table>
      {points.length > SHOWN_ROWS && <p className="muted small pad">The newest {SHOWN_ROWS} of {points.length} campaigns; the chart shows them all.</p>}
    </>
  );
}

export default function TrendPage() {
  const [v, set] = useUrlState(SCHEMA);
  const query: TrendQuery = {
    plan_id: v.plan || undefined,
    target_id: v.target || undefined,
    tool: v.target ? v.tool || undefined : undefined,
    tag: v.tag || undefined,
    metric: v.metric,
    since: v.since || undefined,
  };
  const scoped = Boolean(v.plan || (v.target && v.tool) || v.tag);
  const trend = useTrend(query, scoped);
  const name = title(v);
  return (
    <div className="page trend-page">
      <PageHead title={name} note={<p className="muted small">Every completed campaign, oldest to newest; change points by E-Divisive means.</p>}>
        {v.plan > 0 && (
          <Link className="btn link" to={`/plans/${v.plan}`}>
            Plan
          </Link>
        )}
      </PageHead>
      <form className="card pad inline-form" aria-label="Trend options" onSubmit={(e) => e.preventDefault()}>
        <label>
          Metric{" "}
          <select value={v.metric} onChange={(e) => set({ metric: e.target.value as TrendMetric })}>
            {TREND_METRICS.map((m) => (
              <option key={m} value={m}>
                {METRIC_LABELS[m]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Since <input type="date" value={v.since} onChange={(e) => set({ since: e.target.value }, { replace: true })} />
        </label>
      </form>
      {!scoped ? (
        <ErrorState error={new Error("Open a trend from a plan or a report (History of this plan).")} title="No trend chosen" />
      ) : (
        <QueryView query={trend} loading="Loading the trend">
          {(data) => (
            <>
              <section className="card">
                <TrendChart points={data.points} changes={data.change_points} metric={data.metric} />
              </section>
              <section className="card flush">
                <h2 className="pad">Change points</h2>
                <Changes changes={data.change_points} metric={data.metric} />
              </section>
              <section className="card flush">
                <h2 className="pad">Campaigns ({data.points.length})</h2>
                <Rows points={data.points} baseline={data.baseline_campaign_id} />
              </section>
            </>
          )}
        </QueryView>
      )}
    </div>
  );
}
