import { usePointEvidence, usePointSamples } from "../../api/points";
import MonitorCharts from "../../charts/MonitorCharts";
import { eventsOf } from "../../charts/eventMarkers";
import FailoverPanel from "../failover/FailoverPanel";
import CpuProfile from "../profiling/CpuProfile";
import { fmtDateTime, fmtNumber } from "../../format";
import { ErrorState, Loading } from "../common/States";
import SharesTable, { sharesOf } from "./SharesTable";

/** The exact command, the tool's version and its raw output for one point; with `cpuProfile`, its CPU profile (zoomable). */
export default function PointEvidence({ pointId, cpuProfile = false }: { pointId: number; cpuProfile?: boolean }) {
  const ev = usePointEvidence(pointId);
  const samples = usePointSamples(pointId);
  if (ev.isPending) return <Loading what="Loading evidence" />;
  if (ev.isError) return <ErrorState error={ev.error} retry={() => ev.refetch()} what="the point's evidence" />;
  const p = ev.data;
  const shares = sharesOf(p.extra);
  const extra = Object.entries(p.extra ?? {}).filter(([k]) => !(shares && k === "shares"));
  return (
    <div className="evidence" data-testid="evidence">
      {p.error && (
        <p className="error-text">
          <strong>Failed:</strong> {p.error}
        </p>
      )}
      {p.warnings.length > 0 && (
        <ul className="warnings">
          {p.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      {shares && <SharesTable shares={shares} skewMs={p.extra?.start_skew_ms as number | null | undefined} durationS={p.duration_s} />}
      <dl className="facts">
        <dt>command</dt>
        <dd className="mono argv">{p.argv.length ? p.argv.map((a) => (/[\s"'$]/.test(a) ? JSON.stringify(a) : a)).join(" ") : "—"}</dd>
        <dt>tool version</dt>
        <dd>{p.tool_version ?? "—"}</dd>
        <dt>exit code</dt>
        <dd>{p.exit_code ?? "—"}</dd>
        <dt>agent</dt>
        <dd>{p.agent ?? "—"}</dd>
        <dt>parser</dt>
        <dd>{p.parser_version ?? "—"}</dd>
        <dt>ran</dt>
        <dd>
          {fmtDateTime(p.started_at)} → {fmtDateTime(p.ended_at)}
        </dd>
        {extra.map(([k, v]) => (
          <div key={k} className="fact-row">
            <dt>{k}</dt>
            <dd className="mono">{typeof v === "number" ? fmtNumber(v) : JSON.stringify(v)}</dd>
          </div>
        ))}
      </dl>
      {samples.data && <MonitorCharts samples={samples.data.samples} events={eventsOf(p.extra)} />}
      {p.extra?.outcomes_stored === true && <FailoverPanel pointId={pointId} extra={p.extra} />}
      {cpuProfile && <CpuProfile pointId={pointId} heading="CPU profile" interactive />}
      <details open={!!p.error}>
        <summary>stdout ({p.stdout.length.toLocaleString()} chars)</summary>
        <pre className="raw">{p.stdout || "(empty)"}</pre>
      </details>
      <details open={!!p.error && !!p.stderr}>
        <summary>stderr ({p.stderr.length.toLocaleString()} chars)</summary>
        <pre className="raw">{p.stderr || "(empty)"}</pre>
      </details>
    </div>
  );
}
