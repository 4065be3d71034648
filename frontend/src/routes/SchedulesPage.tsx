// Schedules: a plan launched on a five-field cron by the scheduler; missed runs are shown, never run late.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { API_BASE, getJson, readJson } from "../api/client";
import { usePlans } from "../api/plans";
import PageHead from "../components/common/PageHead";
import { QueryView } from "../components/common/States";
import Table from "../components/common/Table";
import { fmtDateTime } from "../format";

type Schedule = {
  id: number;
  plan_id: number;
  cron: string;
  timezone: string;
  enabled: boolean;
  thresholds: string[];
  baseline: string | null;
  next_run_at: string | null;
  last_run_at: string | null;
  last_campaign_id: number | null;
  last_status: string | null;
  last_gate: string | null;
  missed: number;
  last_missed_at: string | null;
  skipped: number;
};

const KEY = ["schedules"];

async function send(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${API_BASE}${path}`, {
    method,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.status === 204 ? null : readJson(res);
}

function useScheduleChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ method, path, body }: { method: string; path: string; body?: unknown }) => send(method, path, body),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** The last run's outcome: its status and, once it ended, its gate (thresholds, baseline). */
function LastRun({ s }: { s: Schedule }) {
  if (s.last_campaign_id === null) return <span className="muted">{s.last_gate ?? "—"}</span>;
  const failed = s.last_gate !== null && s.last_gate !== "passed";
  return (
    <span>
      <Link to={`/campaigns/${s.last_campaign_id}`}>#{s.last_campaign_id}</Link> {s.last_status}
      {s.last_gate && <span className={failed ? "error-text" : "muted"}> · {failed ? `gate failed: ${s.last_gate}` : "gate passed"}</span>}
    </span>
  );
}

function NewSchedule({ onCreate, pending }: { onCreate: (body: unknown) => void; pending: boolean }) {
  const plans = usePlans();
  const [planId, setPlanId] = useState("");
  const [cron, setCron] = useState("0 2 * * *");
  const [timezone, setTimezone] = useState("UTC");
  const [thresholds, setThresholds] = useState("");
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const list = thresholds.split(",").map((t) => t.trim()).filter(Boolean);
    onCreate({ plan_id: Number(planId), cron, timezone, enabled: true, thresholds: list });
  };
  return (
    <form className="card pad inline-form" onSubmit={submit} aria-label="New schedule">
      <label>
        Plan{" "}
        <select value={planId} onChange={(e) => setPlanId(e.target.value)} required>
          <option value="">choose…</option>
          {(plans.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} (#{p.id})
            </option>
          ))}
        </select>
      </label>{" "}
      <label>
        Cron <input value={cron} onChange={(e) => setCron(e.target.value)} placeholder="m h dom mon dow" required />
      </label>{" "}
      <label>
        Time zone <input value={timezone} onChange={(e) => setTimezone(e.target.value)} required />
      </label>{" "}
      <label>
        Thresholds <input value={thresholds} onChange={(e) => setThresholds(e.target.value)} placeholder="latency_avg_ms<5, loss_pct<1" />
      </label>{" "}
      <button type="submit" className="btn primary" disabled={pending || !planId}>
        Add schedule
      </button>
    </form>
  );
}

export default function SchedulesPage() {
  const schedules = useQuery({ queryKey: KEY, refetchInterval: 15_000, queryFn: ({ signal }) => getJson<Schedule[]>("/schedules", signal) });
  const change = useScheduleChange();
  return (
    <div className="page schedules-page">
      <PageHead title="Schedules" note={<p className="muted">Each run is a campaign tagged schedule:ID; runs missed while Kneeboard was down are counted, not run late.</p>} />
      <NewSchedule pending={change.isPending} onCreate={(body) => change.mutate({ method: "POST", path: "/schedules", body })} />
      {change.isError && <p className="error-text pad">{change.error.message}</p>}
      <section className="card flush">
        <QueryView query={schedules} loading="Loading schedules" empty="No schedules yet.">
          {(data) => (
            <Table columns={["#", "Plan", "Cron", "Next run", "Last run", "Missed", "Enabled"]} actions="Actions">
              {data.map((s) => (
                <tr key={s.id}>
                  <td className="muted">{s.id}</td>
                  <td>
                    <Link to={`/plans/${s.plan_id}`}>plan #{s.plan_id}</Link>
                  </td>
                  <td>
                    <code>{s.cron}</code> <span className="muted small">{s.timezone}</span>
                  </td>
                  <td className="small">{s.enabled ? fmtDateTime(s.next_run_at) : "disabled"}</td>
                  <td className="small">
                    <LastRun s={s} />
                  </td>
                  <td className="small" title={s.last_missed_at ? `last missed ${fmtDateTime(s.last_missed_at)}` : undefined}>
                    {s.missed}
                    {s.skipped ? <span className="muted"> ({s.skipped} skipped: previous run still going)</span> : null}
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`schedule ${s.id} enabled`}
                      checked={s.enabled}
                      onChange={(e) => change.mutate({ method: "PATCH", path: `/schedules/${s.id}`, body: { enabled: e.target.checked } })}
                    />
                  </td>
                  <td className="row-actions">
                    <Link className="btn small" to={`/campaigns?tag=${encodeURIComponent(`schedule:${s.id}`)}`}>
                      Runs
                    </Link>{" "}
                    <button type="button" className="btn small danger" onClick={() => change.mutate({ method: "DELETE", path: `/schedules/${s.id}` })}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </QueryView>
      </section>
    </div>
  );
}
